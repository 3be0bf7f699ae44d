/**
 * Tool names as the service takes them (`^[a-zA-Z0-9_-]{1,64}$`): VS Code's tools, MCP ones
 * especially, may have dots, spaces or longer names, which the service refuses with a 400. Each
 * name gets a valid, unique stand-in for the wire, and calls coming back get their own name again.
 */
import * as l10n from '@vscode/l10n';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

export class ToolNames {
  private readonly wireOf = new Map<string, string>();
  private readonly nameOf = new Map<string, string>();
  private readonly offeredNames: ReadonlySet<string>;

  // Stryker disable next-line ArrayDeclaration: any default name only takes a stand-in no tool has
  constructor(names: Iterable<string> = []) {
    // Valid names first, so each keeps its own name and only the others get stand-ins.
    const all = [...names];
    this.offeredNames = new Set(all);
    for (const n of [...all.filter((n) => VALID.test(n)), ...all]) this.wire(n);
  }

  /** The name to send for `name` (itself when valid and free). */
  wire(name: string): string {
    const known = this.wireOf.get(name);
    if (known !== undefined) return known;
    const base = VALID.test(name) ? name : name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
    let wire = base;
    for (let i = 2; this.nameOf.has(wire); i++) wire = `${base.slice(0, 64 - String(i).length - 1)}_${i}`;
    this.wireOf.set(name, wire);
    this.nameOf.set(wire, name);
    return wire;
  }

  /** The tool's own name for a name the model used; undefined when the request offered no such tool. */
  offered(wire: string): string | undefined {
    const name = this.nameOf.get(wire);
    return name !== undefined && this.offeredNames.has(name) ? name : undefined;
  }
}

/**
 * The model called a tool the request did not offer (a name it invented, or one from earlier in
 * the conversation that is no longer there): refused rather than handed to whatever has that name.
 */
export class UnofferedToolError extends Error {
  override readonly name = 'UnofferedToolError';

  constructor(tool: string, deployment: string) {
    super(l10n.t('The model of "{0}" called a tool "{1}" that this request did not offer, so the call was not made. Send the request again.', deployment, tool.slice(0, 64)));
  }
}
