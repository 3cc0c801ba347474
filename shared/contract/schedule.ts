/**
 * A schedule as /scheduling/v1/schedules answers it (creation, GET, DELETE) and as its
 * notifications carry it (shared/engine/answers/schedule.ts).
 */
import * as z from 'zod';
import { answered, resultCode } from './envelope';
import { echoedGroup, optionalText } from './registry';

export const scheduleRun = z.object({
  scheduledTime: z.string(),
  status: z.string().describe('SCHEDULED, EXECUTED, SKIPPED …'),
  paymentId: optionalText(),
  result: z.object({ code: resultCode, description: z.string() }).optional(),
});

const scheduleFields = {
  id: z.string(),
  registrationId: z.string(),
  paymentType: z.string(),
  amount: z.string(),
  currency: z.string(),
  customParameters: echoedGroup().optional(),
  standingInstruction: echoedGroup().optional(),
  job: echoedGroup().describe('The job as sent, and its Quartz cron expression.'),
  state: z.string(),
  nextRunTime: optionalText(),
  runs: z.array(scheduleRun),
} as const;

const scheduleAnswers = answered(
  'Schedule',
  scheduleFields,
  'A schedule: the registration it charges, the payment it makes, the job, its state and runs, then the envelope.',
);
export const scheduleAnswer = scheduleAnswers.answer;
export const schedule = scheduleAnswers.wire;

export type ScheduleAnswer = z.infer<typeof scheduleAnswer>;
export type Schedule = z.infer<typeof schedule>;
