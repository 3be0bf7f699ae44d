/** The panel's header form: the deployment picker and the request parameters. */
import { deploymentDetails } from '../../chat/naming';
import type { ChatParams, ConversationView, DeploymentOption } from '../../chat/model';
import { $ } from '../shared/page';


export const PARAM_FIELDS = ['system-prompt', 'temperature', 'top-p', 'max-tokens', 'route', 'api-version', 'api', 'reasoning-effort', 'background', 'cache-key', 'cache-retention'];

/** The deployment picker: every deployment offered, and the conversation's own even when not listed. */
export function renderDeployments(deploymentSelect: HTMLSelectElement, deployments: DeploymentOption[], conversation: ConversationView | undefined): void {
  deploymentSelect.replaceChildren(
    ...deployments.map((d) => {
      const details = deploymentDetails(d);
      return new Option(`${d.deployment}${details ? ` (${details})` : ''} · ${d.connectionLabel}`, JSON.stringify([d.connectionId, d.deployment]));
    }),
  );
  if (conversation) {
    const current = JSON.stringify([conversation.connectionId, conversation.deployment]);
    if (!deployments.some((d) => JSON.stringify([d.connectionId, d.deployment]) === current)) {
      deploymentSelect.prepend(new Option(`${conversation.deployment} · ${conversation.connectionLabel}`, current));
    }
    deploymentSelect.value = current;
  }
}

/** Shows the conversation's parameters, leaving alone the field being edited. */
export function renderSettings(p: ChatParams): void {
  const set = (id: string, v: string) => {
    const el = $<HTMLInputElement>(id);
    if (document.activeElement !== el) el.value = v;
  };
  set('system-prompt', p.systemPrompt);
  set('temperature', p.temperature?.toString() ?? '');
  set('top-p', p.topP?.toString() ?? '');
  set('max-tokens', p.maxTokens?.toString() ?? '');
  set('route', p.route);
  set('api-version', p.apiVersion ?? '');
  set('api', p.api ?? '');
  set('reasoning-effort', p.reasoningEffort ?? '');
  $<HTMLInputElement>('background').checked = p.background === true;
  set('cache-key', p.promptCacheKey ?? '');
  set('cache-retention', p.promptCacheRetention ?? '');
  cacheFieldsFor(p.route);
}

/** The api-version is the deployment route's; the prompt cache's options the v1 route's. */
function cacheFieldsFor(route: ChatParams['route'] | undefined): void {
  $<HTMLInputElement>('api-version').disabled = route !== 'deployment';
  $<HTMLInputElement>('cache-key').disabled = route === 'deployment';
  $<HTMLSelectElement>('cache-retention').disabled = route === 'deployment';
}

const numberOrNull = (id: string) => {
  const v = $<HTMLInputElement>(id).value.trim();
  return v === '' ? null : Number(v);
};
/** The parameters as the form holds them (null: cleared). */
export function readParams(): Partial<ChatParams> {
  const params: Record<string, unknown> = {
    systemPrompt: $<HTMLTextAreaElement>('system-prompt').value,
    temperature: numberOrNull('temperature'),
    topP: numberOrNull('top-p'),
    maxTokens: numberOrNull('max-tokens'),
    route: $<HTMLSelectElement>('route').value as ChatParams['route'],
    apiVersion: $<HTMLInputElement>('api-version').value.trim(),
    api: $<HTMLSelectElement>('api').value || null,
    reasoningEffort: $<HTMLSelectElement>('reasoning-effort').value || null,
    background: $<HTMLInputElement>('background').checked || null,
    promptCacheKey: $<HTMLInputElement>('cache-key').value.trim() || null,
    promptCacheRetention: $<HTMLSelectElement>('cache-retention').value || null,
  };
  cacheFieldsFor(params.route as ChatParams['route']);
  return params as Partial<ChatParams>;
}
