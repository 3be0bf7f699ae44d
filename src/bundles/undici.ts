/// <reference path="./undiciLib.d.ts" />
/**
 * The parts of undici the product uses, bundled once as `dist/undici.js` (see esbuild.mjs): the
 * network bundle and the emulator bundle load them from here. Only its interface: the Dispatcher
 * class, `request()` and its body reader, the error classes. The requests themselves go over
 * node:http (src/service/nodeDispatcher.ts), so undici's own clients (Client, Pool, Agent and
 * their WebAssembly parser) are left out, and so are fetch, WebSocket, the caches and the mocks
 * (undici is CommonJS: a bundler cannot drop what its index loads). test/unit/undici-bundle.test.ts
 * checks that every undici value src/ imports is exported here.
 */
import type * as Undici from 'undici';
import api from 'undici/lib/api';
import Dispatcher from 'undici/lib/dispatcher/dispatcher';
import errors from 'undici/lib/core/errors';

// What undici's index does: every dispatcher gets `request`, `stream` and the rest.
Object.assign(Dispatcher.prototype, api);

/**
 * `request(url, options)` as undici's, asked of the options' dispatcher: there is no global one
 * (it would be undici's own Agent), so every call says which of ours it goes through.
 */
function request(url: string | URL, options: Parameters<typeof Undici.request>[1] = {}) {
  const target = new URL(url);
  const { dispatcher, ...rest } = options ?? {};
  if (!dispatcher) throw new errors.InvalidArgumentError('request() needs a dispatcher: the shipped undici has no global one');
  return dispatcher.request({
    ...rest,
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: rest.method ?? (rest.body ? 'PUT' : 'GET'),
  });
}

const typedRequest = request as typeof Undici.request;
export { Dispatcher, errors, typedRequest as request };
