/// The version `iapctl --version` prints, and the one the webhook client's `User-Agent` names.
package let iapctlVersion = "0.1.0"
