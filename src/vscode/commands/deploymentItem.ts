/** A deployment as a quick pick item, in the chat and compare pickers. */
import type { DeploymentOption } from '../../chat/model';
import { deploymentDetails } from '../../chat/naming';
import { plainLine } from '../plainText';

/** Its name, model and connection are the service's and Azure's words: shown as text, no codicon. */
export const deploymentItem = (o: DeploymentOption) => ({
  label: plainLine(o.deployment),
  description: plainLine(deploymentDetails(o)) || undefined,
  detail: plainLine(o.connectionLabel),
  option: o,
});
