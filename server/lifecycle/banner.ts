/**
 * The start banner: the demo merchant's credentials and the demo users, for a person to read and
 * copy, so not JSON; each line starts with its time (ISO 8601, UTC) like every other line the
 * gateway writes (issue 34: no log line without a time).
 */
export function printBanner(
  lines: readonly string[],
  now: () => Date = () => new Date(),
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): void {
  const time = now().toISOString();
  for (const line of lines) write(`${time} ${line}`);
}
