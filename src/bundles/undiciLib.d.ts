/** undici's own modules that src/bundles/undici.ts loads one by one: typed as the classes undici exports. */
declare module 'undici/lib/api' {
  const api: Record<string, unknown>;
  export default api;
}
declare module 'undici/lib/dispatcher/agent' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/dispatcher/dispatcher' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
declare module 'undici/lib/dispatcher/pool' {
  import { Pool } from 'undici';
  export default Pool;
}
declare module 'undici/lib/dispatcher/proxy-agent' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}
declare module 'undici/lib/core/errors' {
  import { errors } from 'undici';
  export default errors;
}
