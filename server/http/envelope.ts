/**
 * The envelope every JSON response carries (decisions, Wire format): result, buildNumber,
 * timestamp and ndc, sent as one write with the content type and cache headers clients expect.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { capErrors } from '../../shared/params/error-list';
import { formatTs } from '../../shared/params/formats';

export interface Result {
  readonly code: string;
  readonly description: string;
  readonly parameterErrors?: readonly { name: string; value: string | null; message: string }[];
}

/** `yyyy-MM-dd HH:mm:ss` in UTC. */
export const utc = formatTs;

/** The response timestamp: `2021-08-16 17:34:10+0000`. */
export const timestamp = (date: Date): string => `${utc(date)}+0000`;

/** `<40-hex commit>@yyyy-MM-dd HH:mm:ss +0000`. */
export function buildNumber(commit: string, builtAt: Date): string {
  const sha = /^[0-9a-f]{40}$/.test(commit) ? commit : '0'.repeat(40);
  return `${sha}@${utc(builtAt)} +0000`;
}

/** A fresh request identifier for responses that belong to no payment. */
export const newNdc = (): string => randomBytes(16).toString('hex');

export const JSON_HEADERS = {
  'Content-Type': 'application/json;charset=UTF-8',
  'Cache-Control': 'private, no-cache, no-store',
} as const;

export interface Envelope {
  /** One JSON write: the body, then result, buildNumber, timestamp and ndc. */
  send(c: Context, status: number, result: Result, body?: object, ndc?: string): Response;
}

export function envelope(build: string, now: () => Date): Envelope {
  return {
    send(c, status, result, body = {}, ndc = newNdc()) {
      // Every answer lists at most MAX_LISTED_PARAMETER_ERRORS of them, whoever built the list.
      if (result.parameterErrors !== undefined)
        result = { ...result, parameterErrors: capErrors(result.parameterErrors) };
      const json = JSON.stringify({ ...body, result, buildNumber: build, timestamp: timestamp(now()), ndc });
      return c.body(json, status as 200, JSON_HEADERS);
    },
  };
}
