# The _jarmo C module (kernels.c), built into Jarmo's firmware by tools/firmware.py
# (USER_C_MODULES points at the staged copy of firmware/).
JARMO_MOD_DIR := $(USERMOD_DIR)
SRC_USERMOD_C += $(JARMO_MOD_DIR)/kernels.c
