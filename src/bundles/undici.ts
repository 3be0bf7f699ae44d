/**
 * undici, bundled once as `dist/undici.js` (see esbuild.mjs): the network bundle and the emulator
 * bundle load it from here, on first use, never at activation. The whole library (it is
 * CommonJS: a bundler cannot drop what its index loads); src/ uses its Agent, ProxyAgent (with
 * its SOCKS5 agent), `request()` and errors. Inside VS Code it carries only loopback traffic:
 * everything else takes the host's fetch (src/service/hostTransport.ts).
 */
export * from 'undici';
