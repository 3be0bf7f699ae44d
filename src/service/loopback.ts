/**
 * Where plain http is allowed: this machine only. A host is loopback when it is an address in
 * 127.0.0.0/8 or ::1 (IPv4-mapped forms too), parsed as an address rather than matched as text
 * (`127.attacker.example` is a name, not an address), or a name under `localhost` (RFC 6761),
 * which `loopbackLookup` pins to 127.0.0.1 so that no resolver decides where a key goes.
 */
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** `localhost` and names under it (a final dot allowed). */
export function isLocalhostName(hostname: string): boolean {
  return /(^|\.)localhost\.?$/i.test(hostname);
}

/** A URL's `hostname` (IPv6 in brackets or not) is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const family = isIP(h);
  if (family === 4) return LOOPBACK.check(h, 'ipv4');
  if (family === 6) return LOOPBACK.check(h, 'ipv6');
  return isLocalhostName(h);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for sockets: `.localhost` names are 127.0.0.1, anything else asks the system. */
export function loopbackLookup(hostname: string, options: { all?: boolean }, cb: LookupCallback): void {
  if (!isLocalhostName(hostname)) {
    systemLookup(hostname, options as never, cb as never);
    return;
  }
  if (options?.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
}
