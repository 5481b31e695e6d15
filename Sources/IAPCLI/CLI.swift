import IAPKit
