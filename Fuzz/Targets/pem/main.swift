import FuzzDriver
import IAPCLI
import IAPKit

FuzzDriver.run(FuzzEntryPoints.pem)
