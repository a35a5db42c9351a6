// BullMQ rejects custom job ids containing ':' and treats all-digit ids as its own counters.
export class InvalidJobIdError extends Error {}

export function checkJobId(jobId: string): string {
  if (jobId.length === 0 || jobId.length > 200)
    throw new InvalidJobIdError(`job id must be 1..200 characters, got ${jobId.length}`);
  if (jobId.includes(":"))
    throw new InvalidJobIdError(`job id ${JSON.stringify(jobId)} contains ':'`);
  if (/^\d+$/.test(jobId))
    throw new InvalidJobIdError(`job id ${JSON.stringify(jobId)} is all digits`);
  return jobId;
}
