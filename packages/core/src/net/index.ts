// Public surface of core/net: IP addresses as text and bytes.
export { formatIpAddress, parseIpAddress } from "./ip-address.js";
