/**
 * `gateway audit list`: the audit log as the admin API's `GET /admin/v1/audit` reads it (the same
 * query, checked by backoffice/audit/log-query.ts): newest first, `--before` the next page, or
 * oldest first `--after` an entry for following the log.
 */

import { AUDIT_QUERY_FIELDS, DEFAULT_AUDIT, MAX_AUDIT } from '../../backoffice/audit/log-query';
import type { Parsed } from '../args';
import { checkAuditQuery, listAudit } from '../audit-commands';
import type { CommandSpec } from './spec';

const flagsOf = (parsed: Parsed) => (name: string) => {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
};

export const AUDIT_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  list: {
    usage:
      'gateway audit list [--actor ACTOR] [--action ACTION] [--from TIME] [--to TIME]\n' +
      '                          [--before ID | --after ID] [--limit N]',
    summary: 'List the audit log, newest first: who changed what, on what, when and from where.',
    options: Object.fromEntries(AUDIT_QUERY_FIELDS.map((name) => [name, { type: 'string' }] as const)),
    help: [
      ['--actor ACTOR', 'one actor’s entries (a username, operator-token, cli:<os user>)'],
      ['--action ACTION', 'one action’s entries (merchant.create, webhook.delete …)'],
      ['--from TIME', 'entries at or after an ISO time or a day (UTC)'],
      ['--to TIME', 'entries before an ISO time or a day (UTC)'],
      ['--before ID', 'the next page: entries older than this id (the previous page’s last)'],
      ['--after ID', 'oldest first, entries after this id (0: from the start), for following the log'],
      ['--limit N', `at most N entries, 1 to ${MAX_AUDIT} (default ${DEFAULT_AUDIT})`],
    ],
    positionals: [],
    prepare: (p) => {
      const query = checkAuditQuery(flagsOf(p));
      return (ctx) => listAudit(ctx, query);
    },
  },
};
