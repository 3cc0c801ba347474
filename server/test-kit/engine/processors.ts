/** The simulators alone, for engine tests: EXTERNAL and live requests are refused (no connector). */
import type { Processors } from '../../../shared/engine/core/ports';
import { simulatorProcessor } from '../../processors/simulator/processor';

export const simulatedProcessors: Processors = { simulator: simulatorProcessor, connector: () => undefined };
