/**
 * Dispatch for the operator CLI: argv to a command of the command table (table/, one file per
 * area), with help texts and exit codes (0 success, 1 failure, 2 usage error). Arguments are checked
 * before the store is opened, so a usage error never touches the data.
 */

import { type Clock, systemClock } from '../../shared/engine/core/ports';
import { cliActor, writeAudit } from '../backoffice/audit/audit';
import type { Vault } from '../security/vault';
import type { GatewayStore } from '../storage';
import { adminUrl, runningGatewayClock } from './admin-api';
import { CliError, cliError, type OptionSpec, type Parsed, parseFlags, usageError } from './args';
import type { Output } from './commands';
import { AUDIT_COMMANDS } from './table/audit';
import { CHANNEL_COMMANDS } from './table/channel';
import { CHARGEBACK_COMMANDS } from './table/chargeback';
import { CLOCK_COMMANDS } from './table/clock';
import { MERCHANT_COMMANDS } from './table/merchant';
import { PAYMENT_COMMANDS } from './table/payment';
import { REGISTRATION_COMMANDS } from './table/registration';
import { SETTLEMENT_COMMANDS } from './table/settlement';
import type { CommandSpec, StoreCommandSpec } from './table/spec';
import { TOKEN_COMMANDS } from './table/token';
import { USER_COMMANDS } from './table/user';
import { WEBHOOK_COMMANDS } from './table/webhook';
import type { WebhookCommandContext } from './webhook-commands';

const GROUPS = {
  merchant: 'Merchants: the businesses the gateway serves.',
  channel: 'Channels: a merchant’s entityIds, each with its mode and settings.',
  token: 'Access tokens: what a merchant sends as `Authorization: Bearer <token>`.',
  webhook: 'Webhooks: where a merchant’s notifications go, and their delivery log.',
  chargeback: 'Chargebacks: booked from the acquirer’s side against a DB, CP or RB, and reversed.',
  payment: 'Payments: an uncertain one (its processor’s answer lost) asked about again.',
  registration: 'Saved cards (registrations): deleted as DELETE /v1/registrations/{id} deletes them.',
  settlement: 'Settlement: the daily run that writes reconciliation records and files.',
  clock: 'The test clock of a running gateway (GATEWAY_TEST_CLOCK=on), through its admin API.',
  user: 'Users: who may sign in to the administration dashboard, and their roles.',
  audit: 'The audit log: every change by the admin API, the dashboard or the CLI, newest first.',
} as const;
type Group = keyof typeof GROUPS;

const COMMANDS: Readonly<Record<Group, Readonly<Record<string, CommandSpec>>>> = {
  merchant: MERCHANT_COMMANDS,
  channel: CHANNEL_COMMANDS,
  token: TOKEN_COMMANDS,
  webhook: WEBHOOK_COMMANDS,
  chargeback: CHARGEBACK_COMMANDS,
  payment: PAYMENT_COMMANDS,
  registration: REGISTRATION_COMMANDS,
  settlement: SETTLEMENT_COMMANDS,
  clock: CLOCK_COMMANDS,
  user: USER_COMMANDS,
  audit: AUDIT_COMMANDS,
};

const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const isGroup = (name: string): name is Group => Object.hasOwn(COMMANDS, name);

export function mainHelp(): string {
  const lines = [
    'gateway: manage the payment gateway’s merchants, channels, access tokens, webhooks and chargebacks.',
    '',
    'Usage: gateway <command> [options] [--json]',
    '',
    'Commands:',
  ];
  for (const group of Object.keys(COMMANDS) as Group[])
    for (const spec of Object.values(COMMANDS[group])) lines.push(`  ${spec.usage.split('\n')[0]}`);
  lines.push(
    '',
    'Options on every command:',
    '  --json       machine-readable output (JSON on stdout; errors as JSON on stderr)',
    '  -h, --help   help for the command',
    '',
    'Environment (the same store as the server):',
    '  GATEWAY_DATA_DIR   folder of the SQLite database (default ./data); only `merchant create` and',
    '                     `user create` create it when it does not exist (and say so)',
    '  DATABASE_URL       postgres://… selects PostgreSQL instead',
    '  GATEWAY_ADMIN_TOKEN  the operator’s token, for `gateway clock` (the running gateway’s admin API);',
    '                     `settlement run` asks that gateway for its test clock with it',
    '',
    'Exit codes: 0 done, 1 failed (unknown merchant, store unavailable …), 2 usage error.',
    'Run `gateway help <command> [<action>]` for details.',
  );
  return lines.join('\n');
}

function groupHelp(group: Group): string {
  const lines = [GROUPS[group], '', 'Usage:'];
  for (const spec of Object.values(COMMANDS[group])) lines.push(`  ${spec.usage}`);
  lines.push('', 'Actions:');
  const actions = Object.entries(COMMANDS[group]);
  const width = Math.max(...actions.map(([a]) => a.length));
  for (const [action, spec] of actions) lines.push(`  ${action.padEnd(width)}  ${spec.summary}`);
  lines.push('', `Run \`gateway ${group} <action> --help\` for its options.`);
  return lines.join('\n');
}

function commandHelp(spec: CommandSpec): string {
  const rows: (readonly [string, string])[] = [
    ...spec.help,
    ['--json', 'machine-readable output'],
    ['-h, --help', 'this help'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `Usage: ${spec.usage}`,
    '',
    spec.summary,
    '',
    spec.positionals.length === 0 ? 'Options:' : 'Arguments and options:',
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
  ].join('\n');
}

export interface RunDeps {
  /** Opens the store; called only once the arguments are known to be valid. */
  readonly openStore: () => Promise<GatewayStore>;
  /** Opens the vault (webhook keys are sealed with the data key); commands that need it fail without. */
  readonly openVault?: () => Pick<Vault, 'encrypt'>;
  /** The HTTP client of the webhook test notification. */
  readonly fetch?: typeof fetch;
  /** The egress policy: connector and webhook URLs the gateway would not call are refused. */
  readonly egress?: WebhookCommandContext['egress'];
  /** The data folder (reconciliation files of `settlement run`). */
  readonly dataDir?: string;
  /**
   * The SQLite data folder the store lives in (none on PostgreSQL): a command on a folder that does
   * not exist is refused, unless it sets up a new installation (`createsDataFolder`), which says
   * that it created it.
   */
  readonly dataFolder?: { readonly path: string; exists(): boolean };
  readonly output: Output;
  readonly clock?: Clock;
  /** GATEWAY_ADMIN_TOKEN and PORT for the commands on the running gateway; process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The HTTP client of those commands; global fetch by default (the operator's own gateway). */
  readonly adminFetch?: typeof fetch;
  /** What is piped to standard input (`gateway user create`'s password); undefined from a terminal. */
  readonly readStdin?: () => Promise<string | undefined>;
}

/** Runs one CLI invocation (argv without `node` and the script); resolves to the exit code. */
export async function run(argv: readonly string[], deps: RunDeps): Promise<number> {
  const { output } = deps;
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  const json = flags.includes('--json');
  const help = flags.includes('--help') || flags.includes('-h');
  let hint = 'gateway help';
  try {
    // Global flags may come before the command.
    let rest = [...argv];
    while (rest[0] === '--json' || rest[0] === '--help' || rest[0] === '-h') rest = rest.slice(1);
    const [group, action] = rest;

    if (group === undefined) {
      if (help) return printHelp(output, mainHelp());
      throw usageError('missing command');
    }
    if (group === 'help') return printHelp(output, helpTopic(rest.slice(1)));
    if (!isGroup(group)) throw usageError(`unknown command ${JSON.stringify(group)}`);
    hint = `gateway help ${group}`;
    if (action === undefined || action.startsWith('-')) {
      if (help) return printHelp(output, groupHelp(group));
      throw usageError(`missing action: gateway ${group} ${Object.keys(COMMANDS[group]).join('|')}`);
    }
    const spec = COMMANDS[group][action];
    if (spec === undefined || !Object.hasOwn(COMMANDS[group], action))
      throw usageError(`unknown action ${JSON.stringify(action)} for ${group}`);
    hint = `gateway ${group} ${action} --help`;
    if (help) return printHelp(output, commandHelp(spec));

    const parsed = parseFlags(rest.slice(2), { ...spec.options, ...COMMON_OPTIONS });
    const required = spec.positionals.length - (spec.variadic === true ? 1 : 0);
    if (parsed.positionals.length < required)
      throw usageError(`missing ${spec.positionals.slice(parsed.positionals.length, required).join(' ')}`);
    if (spec.variadic !== true && parsed.positionals.length > spec.positionals.length)
      throw usageError(`unexpected argument ${JSON.stringify(parsed.positionals[spec.positionals.length])}`);
    if ('overAdminApi' in spec) {
      // on the running gateway: no store opened
      const work = spec.overAdminApi(parsed);
      await work({ output, json, env: deps.env ?? process.env, fetch: deps.adminFetch ?? fetch });
      return 0;
    }
    const work = spec.prepare(parsed);
    const env = deps.env ?? process.env;
    const creates = newDataFolder(spec, deps.dataFolder);
    const clock = await commandClock(spec, parsed, deps, env, output);

    let store: GatewayStore;
    try {
      store = await deps.openStore();
    } catch (error) {
      throw new CliError(`cannot open the store: ${messageOf(error)}`, 1);
    }
    if (creates !== undefined) output.err(`gateway: created the data folder ${creates}`);
    // every change a command makes is audited as the operating system's user, from `cli`
    const actor = cliActor(env);
    try {
      await work({
        store,
        output,
        json,
        audit: (action, target, merchantId) => writeAudit(store, clock, actor, action, target, merchantId),
        ...(deps.clock === undefined && clock === systemClock ? {} : { clock }),
        ...(deps.openVault === undefined ? {} : { vault: deps.openVault() }),
        ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
        ...(deps.egress === undefined ? {} : { egress: deps.egress }),
        ...(deps.dataDir === undefined ? {} : { dataDir: deps.dataDir }),
        ...(deps.readStdin === undefined ? {} : { readStdin: deps.readStdin }),
      });
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    const said = cliError(error);
    const cli = said instanceof CliError ? said : undefined;
    const exitCode = cli?.exitCode ?? 1;
    const message = cli?.message ?? messageOf(error);
    const fields = cli?.parameterErrors ?? [];
    if (json)
      output.err(
        JSON.stringify({
          error: { message, exitCode, ...(fields.length === 0 ? {} : { parameterErrors: fields }) },
        }),
      );
    else {
      output.err(`gateway: ${message}`);
      if (exitCode === 2) output.err(`Run \`${hint}\` for usage.`);
    }
    return exitCode;
  }
}

/**
 * The folder a command is about to create, or undefined when it exists (or the store is not
 * SQLite's); a command that does not set up a new installation is refused instead: a mistyped
 * GATEWAY_DATA_DIR must not leave an empty store behind.
 */
function newDataFolder(spec: StoreCommandSpec, folder: RunDeps['dataFolder']): string | undefined {
  if (folder === undefined || folder.exists()) return undefined;
  if (spec.createsDataFolder === true) return folder.path;
  throw new CliError(
    `no data folder at ${folder.path}: start the gateway once to create it, or set GATEWAY_DATA_DIR to its folder`,
    1,
  );
}

/** The command's clock: the running gateway's for those that follow it (`settlement run`), else the given one. */
async function commandClock(
  spec: StoreCommandSpec,
  parsed: Parsed,
  deps: RunDeps,
  env: Readonly<Record<string, string | undefined>>,
  output: Output,
): Promise<Clock> {
  const fallback = deps.clock ?? systemClock;
  if (spec.gatewayClockUrl === undefined) return fallback;
  const ctx = { output, env, fetch: deps.adminFetch ?? fetch };
  return (await runningGatewayClock(ctx, adminUrl(spec.gatewayClockUrl(parsed), env))) ?? fallback;
}

function helpTopic(topic: readonly string[]): string {
  const [group, action, extra] = topic;
  if (group === undefined) return mainHelp();
  if (!isGroup(group)) throw usageError(`no help for ${JSON.stringify(group)}: not a command`);
  if (action === undefined) return groupHelp(group);
  const spec = Object.hasOwn(COMMANDS[group], action) ? COMMANDS[group][action] : undefined;
  if (spec === undefined || extra !== undefined)
    throw usageError(`no help for ${JSON.stringify(topic.join(' '))}: not a command`);
  return commandHelp(spec);
}

function printHelp(output: Output, text: string): number {
  for (const line of text.split('\n')) output.out(line);
  return 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
