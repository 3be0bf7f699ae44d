/**
 * The user's per-event routes (`aoaiWorkbench.webhooks.routes`), checked once per configuration
 * change: the listener asks on every delivery, and an object setting is read afresh on each call
 * (issue #25's garbage). A route that cannot be used is said once in the log, then skipped.
 */
import * as vscode from 'vscode';
import { checkRoutes, type Routes } from '../../webhooks/send/routes';
import { log } from '../log';
import { setting } from '../settings';

let checked: Routes | undefined;
const said = new Set<string>();
vscode.workspace.onDidChangeConfiguration(() => (checked = undefined));

export function userRoutes(): Routes {
  if (checked) return checked;
  const { routes, problems } = checkRoutes(setting('webhooks.routes'));
  for (const p of problems) {
    if (said.has(p)) continue;
    said.add(p);
    log().warn(`aoaiWorkbench.webhooks.routes: ${p}`);
  }
  checked = routes;
  return routes;
}
