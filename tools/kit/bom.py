"""The bill of materials of each board profile, from kit/bom.json.

    python3 tools/kit/bom.py --profile NAME [--csv PATH]   # print a build's parts
    python3 tools/kit/bom.py --docs                        # rewrite hardware/PROFILES.md's tables

kit/bom.json holds a catalogue of parts (maker, product number, price with
its source and date, data sheet) and, per profile, the build's lines (part,
quantity, role, the pins it connects to) and its power design.  Totals are
computed here, never stored.  Markdown tables go into hardware/PROFILES.md
between `<!-- bom:NAME -->` and `<!-- /bom -->`.
"""

import argparse
import csv
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOM_JSON = os.path.join(ROOT, "kit", "bom.json")
PROFILES_MD = os.path.join(ROOT, "hardware", "PROFILES.md")
CSV_HEADER = ["part", "maker", "product", "qty", "unit price", "line total", "price source", "date"]


def load(path=BOM_JSON):
    with open(path) as f:
        return json.load(f)


def _build(profile_name, data=None):
    data = data or load()
    try:
        return data, data["builds"][profile_name]
    except KeyError:
        raise ValueError("no build for profile %r in kit/bom.json: expected one of %s"
                         % (profile_name, ", ".join(sorted(data["builds"])))) from None


def bom_rows(profile_name, data=None):
    """One dict a line: the catalogue's fields of the part, with qty, role,
    pins and the line's total (rounded to cents)."""
    data, build = _build(profile_name, data)
    rows = []
    for line in build["lines"]:
        part = data["parts"][line["part"]]
        row = dict(part, id=line["part"], qty=line["qty"], role=line["role"], pins=list(line["pins"]))
        row["line_total"] = round(part["unit_price"] * line["qty"], 2)
        rows.append(row)
    return rows


def total(profile_name, data=None):
    return round(sum(row["line_total"] for row in bom_rows(profile_name, data)), 2)


def power(profile_name, data=None):
    return _build(profile_name, data)[1]["power"]


def battery_mah(profile_name, data=None):
    """The capacity of the build's battery, from its part's name ("... 1200 mAh")."""
    data = data or load()
    name = data["parts"][power(profile_name, data)["battery"]]["name"]
    found = re.search(r"(\d[\d,]*) ?mAh", name)
    if found is None:
        raise ValueError("kit/bom.json: the battery of %s names no capacity: %r" % (profile_name, name))
    return int(found.group(1).replace(",", ""))


def boosted(profile_name, data=None):
    """True when the build feeds its grid 5 V from a boost converter (its
    current is then drawn from the cell at the boost's ratio)."""
    return any(row["id"] == "miniboost" for row in bom_rows(profile_name, data))


def _money(value):
    return "%.2f" % value


def write_csv(profile_name, path, data=None):
    """bom.csv: a row a line, then the total."""
    rows = bom_rows(profile_name, data)
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(CSV_HEADER)
        for r in rows:
            out.writerow([r["name"], r["maker"], r["product"], r["qty"], _money(r["unit_price"]),
                          _money(r["line_total"]), r["price_source"], r["price_date"]])
        out.writerow(["total", "", "", "", "", _money(total(profile_name, data)), "", ""])
    return path


def read_csv(path):
    """The rows of a bom.csv as dicts (the total row included)."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _cell(text):
    return str(text).replace("|", "/").replace("\n", " ")


def markdown(profile_name, data=None):
    """A Markdown table of the build, its total, and its power design."""
    data = data or load()
    lines = ["| qty | part | maker | product | role | pins | USD |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in bom_rows(profile_name, data):
        pins = ", ".join(r["pins"]) or "-"
        lines.append("| %d | %s | %s | %s | %s | %s | %s |" % (
            r["qty"], _cell(r["name"]), _cell(r["maker"]), _cell(r["product"]), _cell(r["role"]), pins,
            _money(r["line_total"])))
    lines.append("| | **total** | | | | | **%s** |" % _money(total(profile_name, data)))
    lines.append("")
    lines.extend(_power_lines(power(profile_name, data), data, "- "))
    return "\n".join(lines) + "\n"


def _power_lines(p, data, bullet):
    switch = p["switch"]
    return [bullet + "battery: %s (%s)" % (data["parts"][p["battery"]]["name"], p["battery_socket"]),
            bullet + "charger: %s" % p["charger"],
            bullet + "on/off: %s, %s" % (data["parts"][switch["part"]]["name"], switch["where"]),
            bullet + "grid's supply: %s" % p["grid_feed"],
            bullet + "why: %s" % p["why"]]


def text(profile_name, data=None):
    """Plain text for a bundle's README.txt: the parts, the total, the power."""
    data = data or load()
    out = ["Parts (kit/bom.json, prices in USD):"]
    for r in bom_rows(profile_name, data):
        out.append("  %2d x %s (%s %s)  %s" % (r["qty"], r["name"], r["maker"], r["product"],
                                              _money(r["line_total"])))
        pins = ", ".join(r["pins"])
        out.append("       %s%s" % (r["role"], "; pins: " + pins if pins else ""))
    out.append("  total: %s" % _money(total(profile_name, data)))
    out.append("")
    out.append("Power:")
    out.extend(_power_lines(power(profile_name, data), data, "  - "))
    return "\n".join(out) + "\n"


MARKER = re.compile(r"(<!-- bom:(\w+) -->\n)(.*?)(<!-- /bom -->)", re.S)


def docs_text(doc, data=None):
    """doc with every `<!-- bom:NAME -->` ... `<!-- /bom -->` block rewritten."""
    data = data or load()
    return MARKER.sub(lambda m: m.group(1) + "\n" + markdown(m.group(2), data) + "\n" + m.group(4), doc)


def write_docs(path=PROFILES_MD):
    with open(path) as f:
        doc = f.read()
    new = docs_text(doc)
    if new != doc:
        with open(path, "w") as f:
            f.write(new)
    return new != doc


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 tools/kit/bom.py",
                                 description="Print a build's bill of materials from kit/bom.json, write it as "
                                             "CSV, or rewrite hardware/PROFILES.md's parts tables.")
    ap.add_argument("--profile", metavar="NAME", help="the build (a board profile)")
    ap.add_argument("--csv", metavar="PATH", help="write the build's bom.csv here")
    ap.add_argument("--docs", action="store_true", help="rewrite the tables in hardware/PROFILES.md")
    args = ap.parse_args(argv)
    try:
        if args.docs:
            print("%s %s" % ("wrote" if write_docs() else "unchanged:", os.path.relpath(PROFILES_MD, ROOT)))
            return 0
        if not args.profile:
            ap.error("give --profile NAME or --docs")
        if args.csv:
            write_csv(args.profile, args.csv)
            print("wrote %s" % args.csv)
        else:
            sys.stdout.write(text(args.profile))
    except ValueError as err:
        print("bom: %s" % err, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
