import pytest
from tests.device import stage
from tests.device.test_game_on_device import booted, tap, trace, wait_state

@pytest.mark.full
def test_probe(tmp_path, firmware_option):
    with booted(tmp_path, firmware_option, "pico", kind="stock",
                nvm=stage.settings_nvm(rules=1, opp=5)) as dev:
        wait_state(dev, "menu", 8000)
        dev.run(1500)
        for l in dev.console:
            if l.startswith(("@@BOOT", "@@STATE", "@@FIRST")) or "jarmo" in l:
                print("CON", l[:150])
        print("BOOTOUT", repr(dev.read_file("boot_out.txt")))
        print("SETTINGS", repr(dev.read_file("settings.toml")))
