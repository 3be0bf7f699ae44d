/**
 * What the chat calls things: a conversation by its first message, a connection by its resource,
 * a deployment by what it runs. Plain functions, shared by the panel, its page and the pickers.
 */

const TITLE_MAX = 40;

/**
 * A short title from the first message: its first sentence without a leading slash command, cut
 * at a word. `fallback` when nothing is left (a bare command such as `/markdown`).
 */
export function chatTitle(text: string, fallback: string): string {
  // Single spaces from here on: words split at ' '.
  const lines = text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
  // A leading command and its bare arguments (`/long 300`, `/code python`) say nothing about the topic.
  // Stryker disable next-line OptionalChaining: split always gives a first line
  if (lines[0]?.startsWith('/')) {
    const words = lines[0].split(' ').slice(1);
    if (/^\d+$/.test(words[0])) words.shift();
    lines[0] = words.length > 1 ? words.join(' ') : '';
  }
  const line = lines.find((l) => /[\p{L}\p{N}]/u.test(l));
  if (!line) return fallback;
  // Stryker disable next-line Regex: a lazy match from the start is found there anyway, and a stop ending the trimmed line gives the whole line either way
  const sentence = line.match(/^.+?[.?!](?=\s|$)/)?.[0] ?? line;
  const short = sentence.length <= TITLE_MAX ? sentence : `${sentence.slice(0, TITLE_MAX).replace(/ \S*$/, '')}…`;
  return short.replace(/[.:;,]+$/, '');
}

/** Host suffixes of Azure OpenAI and AI services resources: what is left is the resource's name. */
const AZURE_SUFFIXES = [
  '.openai.azure.com', '.cognitiveservices.azure.com', '.services.ai.azure.com',
  '.openai.azure.us', '.cognitiveservices.azure.us', '.openai.azure.cn', '.cognitiveservices.azure.cn',
];

/** The endpoint's host (with its port), or the text as given when it is not a URL. */
export function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}

/** The resource's name: the host without the Azure suffix (`contoso-east`), or `local :PORT` on this machine. */
export function resourceName(endpoint: string): string {
  const host = hostOf(endpoint).toLowerCase();
  const suffix = AZURE_SUFFIXES.find((s) => host.endsWith(s));
  if (suffix) return host.slice(0, -suffix.length);
  const local = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(?::(\d+))?$/.exec(host);
  if (local) return local[2] ? `local :${local[2]}` : 'local';
  return host;
}

/**
 * A connection's name in the chat: the label the user gave, or, where the label was made up
 * from the address (`host`, `host (environment)`), the resource's name.
 */
export function connectionName(conn: { label: string; endpoint: string }): string {
  const host = hostOf(conn.endpoint);
  const label = conn.label.trim();
  const madeUp = !label || label === host || label === conn.endpoint || label.startsWith(`${host} (`);
  return madeUp ? resourceName(conn.endpoint) : label;
}

/** What a deployment runs, beside its name: model (when the name is not the model), version, SKU. */
export function deploymentDetails(d: { deployment: string; model?: string; modelVersion?: string; sku?: string }): string {
  const model = d.model && d.model !== d.deployment ? d.model : undefined;
  return [model, d.modelVersion, d.sku].filter(Boolean).join(' · ');
}
