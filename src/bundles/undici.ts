/// <reference path="./undiciLib.d.ts" />
/**
 * undici, bundled once as `dist/undici.js` (see esbuild.mjs): the network bundle and the emulator
 * bundle load it from here, on first use, never at activation. Only the modules src/ uses, loaded
 * one by one: undici is CommonJS, and its index would bring fetch, WebSocket, the caches and the
 * mocks (a third of the package's size). Its Agent, Pool, ProxyAgent (with its SOCKS5 agent),
 * the dispatcher API (`request()`), errors. Inside VS Code it carries only loopback traffic:
 * everything else takes the host's fetch (src/service/hostTransport.ts).
 * test/unit/undici-bundle.test.ts checks that every undici value src/ imports is exported here.
 */
import api from 'undici/lib/api';
import Agent from 'undici/lib/dispatcher/agent';
import Dispatcher from 'undici/lib/dispatcher/dispatcher';
import Pool from 'undici/lib/dispatcher/pool';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent';
import errors from 'undici/lib/core/errors';

// What undici's index does: every dispatcher gets `request`, `stream` and the rest.
Object.assign(Dispatcher.prototype, api);

export { Agent, Dispatcher, Pool, ProxyAgent, errors };
