/**
 * The webhook fixtures' commands (#40: sends, Check My Handler, Copy as Test), registered at activation; their code is in dist/fixtures.js,
 * loaded on the first use. A row of the Events view is named by its delivery's id here, where its
 * class lives.
 */
import * as vscode from 'vscode';
import { Commands } from '../contributions';
import { loadFixtures } from '../fixtures/loader';
import { owned } from '../ownedArgs';
import type { Services } from '../services';
import { EventNode } from '../webhooks/eventsTree';
import { registerFixtureLens } from '../webhooks/fixtureLens';
import type { askingFirst } from './askFirst';

/** A row becomes `{ eventId }`, marked as ours (the row was). */
const rowAsArgs = (arg: unknown): unknown => (arg instanceof EventNode ? owned({ eventId: arg.record.id }) : arg);

export function fixtureCommands(s: Services, command: ReturnType<typeof askingFirst>): vscode.Disposable[] {
  return [
    command(Commands.saveAsFixture, vscode.l10n.t('Could not save the delivery as a fixture'), (arg) => loadFixtures().saveAsFixture(s, rowAsArgs(arg))),
    command(Commands.sendFixture, vscode.l10n.t('Could not send the fixture'), (arg) => loadFixtures().sendFixtureCommand(s, arg)),
    command(Commands.sendFixturesInOrder, vscode.l10n.t('Could not send the fixtures'), (arg) => loadFixtures().sendFixturesInOrder(s, arg)),
    command(Commands.newFixtureFromCatalog, vscode.l10n.t('Could not make the fixture'), (arg) => loadFixtures().newFixtureFromCatalog(s, arg)),
    command(Commands.checkHandler, vscode.l10n.t('Could not check the handler'), (arg) => loadFixtures().checkMyHandler(s.listener, arg)),
    command(Commands.copyFixtureAsTest, vscode.l10n.t('Could not write the test'), (arg) => loadFixtures().copyFixtureAsTest(s.listener, arg)),
    registerFixtureLens(),
  ];
}
