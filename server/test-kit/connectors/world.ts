/**
 * What the connector kit's scenario suite (scenarios.ts) is given by a kind's harness, and what
 * each scenario (flows.ts) gets and answers.
 */
import type { ConnectorContract, Operation } from '../../connectors/kit/contract';
import type { TestGateway, TestMerchant, TestResponse } from '../gateway';
import type { ProcessorShopper } from './shopper';

/** The typed refusal of an operation a connector does not support. */
export const NOT_SUPPORTED_CODE = '600.200.201';

/** What a kind's test system gives the suite. */
export interface ConnectorWorld {
  readonly gateway: TestGateway;
  /** A live merchant whose channel's connector reaches the processor's test system. */
  readonly merchant: TestMerchant;
  /** A live merchant whose connector's address refuses the connection. */
  readonly refused: TestMerchant;
  /** A live merchant whose connector's processor never answers (the client times out). */
  readonly silent: TestMerchant;
  /** The connector of `merchant`'s credentials, for the operations no route reaches yet. */
  readonly contract: ConnectorContract;
  /** The processor's test cards: one it approves, one it declines with `declineCode`. */
  readonly cards: {
    readonly approved: Readonly<Record<string, string>>;
    readonly declined: Readonly<Record<string, string>>;
    readonly declineCode: string;
  };
  /**
   * The shopper's part through the processor (3-D Secure, redirect methods: shopper-flows.ts);
   * without it those scenarios are in the table as not supported.
   */
  readonly shopper?: ShopperWorld;
  cleanup(): Promise<void>;
}

/** What the shopper scenarios need of a kind's test system. */
export interface ShopperWorld {
  /** A live merchant whose channel authenticates (3-D Secure on), its connector reaching the processor. */
  readonly authenticating: TestMerchant;
  /** The processor's 3-D Secure test cards: one it challenges, one it authenticates without the shopper. */
  readonly cards: {
    readonly challenge: Readonly<Record<string, string>>;
    readonly frictionless: Readonly<Record<string, string>>;
  };
  /** What a payment with a redirect brand the processor offers sends (its brand, its account data). */
  readonly redirectBrand?: Readonly<Record<string, string>>;
  /** The shopper on the processor's page (its challenge, its provider): where it sends them back. */
  readonly atProcessor: ProcessorShopper;
  /** Moves the gateway's clock (an abandoned payment's 30 minutes). */
  advance(ms: number): void;
}

export interface ConnectorHarness {
  readonly kind: string;
  start(): Promise<ConnectorWorld>;
}

/** How a scenario ended, for the table. */
export type Support = 'supported' | 'not supported' | `expected to change: ${string}`;

/** What a scenario gets: the merchant's requests on the live address, and the world. */
export interface ScenarioContext {
  readonly world: ConnectorWorld;
  post(path: string, params: Record<string, string>, as?: TestMerchant): Promise<TestResponse>;
  /** 'not supported' when the answer is the typed refusal 600.200.201, else undefined. */
  unsupported(answer: TestResponse): Support | undefined;
}

export interface Scenario {
  readonly name: string;
  readonly operations: readonly Operation[];
  run(context: ScenarioContext): Promise<Support>;
}
