/** A setting of the environment read as a positive number (milliseconds, counts); undefined when unset, empty or not one. */
export const positiveNumber = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
};
