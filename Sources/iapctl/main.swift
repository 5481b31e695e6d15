import IAPCLI
