/**
 * `gateway user …`: create, list, disable, reset-password, unlock (the administration's users).
 */

import { checkId, requiredFlag, stringFlag, usageError } from '../args';
import {
  createAdminUser,
  disableAdminUser,
  listAdminUsers,
  resetAdminPassword,
  unlockAdminUser,
} from '../user-commands';
import { type CommandSpec, ID_HELP } from './spec';

const ROLES = ['operator', 'merchant-admin', 'merchant-viewer'];

export const USER_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  create: {
    createsDataFolder: true,
    usage:
      'gateway user create --username USERNAME --role operator|merchant-admin|merchant-viewer [--merchant ID]',
    summary:
      'Create a dashboard user; the password is read from standard input when piped in, else generated and printed once.',
    options: { username: { type: 'string' }, role: { type: 'string' }, merchant: { type: 'string' } },
    help: [
      ['--username USERNAME', '3 to 64 of A-Z a-z 0-9 . _ @ -'],
      [
        '--role ROLE',
        'operator (every merchant), merchant-admin or merchant-viewer (one merchant, read only)',
      ],
      ['--merchant ID', `the merchant of a merchant-admin or merchant-viewer (${ID_HELP})`],
    ],
    positionals: [],
    prepare: (p) => {
      const username = requiredFlag(p, 'username', 'USERNAME');
      const role = requiredFlag(p, 'role', 'ROLE');
      if (!ROLES.includes(role)) throw usageError(`--role must be one of ${ROLES.join(', ')}, got "${role}"`);
      const merchant = stringFlag(p, 'merchant');
      if (role === 'operator' && merchant !== undefined)
        throw usageError('an operator belongs to no merchant: drop --merchant');
      if (role !== 'operator' && merchant === undefined) throw usageError(`a ${role} needs --merchant ID`);
      const merchantId = merchant === undefined ? undefined : checkId(merchant, 'merchant id');
      return (ctx) =>
        createAdminUser(ctx, { username, role, ...(merchantId === undefined ? {} : { merchantId }) });
    },
  },
  list: {
    usage: 'gateway user list [--merchant ID]',
    summary: 'List the dashboard’s users (never their passwords): all, or a merchant’s.',
    options: { merchant: { type: 'string' } },
    help: [['--merchant ID', `only this merchant’s users (${ID_HELP})`]],
    positionals: [],
    prepare: (p) => {
      const merchant = stringFlag(p, 'merchant');
      const merchantId = merchant === undefined ? undefined : checkId(merchant, 'merchant id');
      return (ctx) => listAdminUsers(ctx, merchantId === undefined ? {} : { merchantId });
    },
  },
  disable: {
    usage: 'gateway user disable USERNAME',
    summary: 'Disable a user: their sessions end and they cannot sign in again.',
    options: {},
    help: [['USERNAME', 'the user’s username']],
    positionals: ['USERNAME'],
    prepare: (p) => {
      const username = p.positionals[0]!;
      return (ctx) => disableAdminUser(ctx, { username });
    },
  },
  'reset-password': {
    usage: 'gateway user reset-password USERNAME',
    summary: 'Give a user a new generated password (printed once), lift a lock, end their sessions.',
    options: {},
    help: [['USERNAME', 'the user’s username']],
    positionals: ['USERNAME'],
    prepare: (p) => {
      const username = p.positionals[0]!;
      return (ctx) => resetAdminPassword(ctx, { username });
    },
  },
  unlock: {
    usage: 'gateway user unlock USERNAME',
    summary: 'Lift the lock of ten failed sign-ins (the password stays): also for the last operator.',
    options: {},
    help: [['USERNAME', 'the user’s username']],
    positionals: ['USERNAME'],
    prepare: (p) => {
      const username = p.positionals[0]!;
      return (ctx) => unlockAdminUser(ctx, { username });
    },
  },
};
