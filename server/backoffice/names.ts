/**
 * The one rule for the names an operator gives merchants and channels, whichever face they come
 * through: trimmed, then 1 to 100 characters, no control, format (bidi overrides, zero-width) or
 * unassigned characters, so a name always prints as what it is.
 */
import { z } from 'zod';

export const MAX_NAME_LENGTH = 100;

export const displayName = z
  .string({ error: 'is required: 1 to 100 characters' })
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .refine(
        (value) => [...value].length <= MAX_NAME_LENGTH,
        `must be at most ${MAX_NAME_LENGTH} characters`,
      )
      .refine((value) => !/\p{C}/u.test(value), 'must not contain control or invisible characters'),
  );

/** Merchant, channel (entityId) and token ids: 32 lowercase hex characters. */
export const ID = /^[0-9a-f]{32}$/;
