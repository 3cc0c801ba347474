/**
 * The widget's payment methods, as Adyen Web's `core.registry`: each method folder of
 * `components/` describes itself (which brands it draws, by their kind in the gateway's brand
 * catalogue, `shared/brands`; whether its brands share one form; its component) and registers that
 * descriptor; `widget/methods.ts` imports every folder once, before the widget starts. Core plans
 * and renders whatever is registered and names no method: core never imports `components/`
 * (`widget/import-graph.test.ts`).
 */
import type { ComponentType } from 'preact';
import { type BrandKind, brandKind } from '../../shared/brands';
import type { Session, StoredRegistration } from './api';
import type { Settings } from './options';

/** What core hands every method's component. */
export interface MethodProps {
  /** The brand of a one-brand form (the first of `brands` for a grouped one). */
  readonly brand: string;
  /** Every brand the form draws, in the page's order (one, unless the method is grouped). */
  readonly brands: readonly string[];
  /** The pay button's text (`labels.submit`, "Save", "Pay <amount>"). */
  readonly payLabel: string;
}

export interface MethodDescriptor {
  /** The method's name: the plan's `kind` and the form's key (`card`, `directDebit`, …). */
  readonly name: string;
  /** The catalogue kinds (`shared/brands` brandKind) of the brands it may draw. */
  readonly kinds: readonly BrandKind[];
  /** Narrows `kinds` (a bank brand with an IBAN, a wallet with a sheet here, …); default: all. */
  readonly accepts?: (brand: string) => boolean;
  /** All its brands share one form (the card form), placed where its first brand is listed. */
  readonly grouped?: boolean;
  /** Methods are asked in this order (lowest first); the first that accepts a brand draws it. */
  readonly order: number;
  readonly Component: ComponentType<MethodProps>;
  /**
   * Fetches the parts (components/internal/lazy.tsx) its form will draw for this session and the
   * page's options, before the widget is drawn, so that `onReady` still means drawn (the card
   * form's billing address when the page asks for one).
   */
  readonly prepare?: (session: Session | undefined, settings: Settings) => Promise<unknown> | undefined;
}

/** The stored registrations' form (one-click), drawn before the methods when the session has any. */
export interface RegistrationsProps {
  readonly registrations: readonly StoredRegistration[];
  readonly payLabel: string;
  /** Shows the methods hidden by `registrations.hideInitialPaymentForms`; undefined when shown. */
  readonly onShowOthers: (() => void) | undefined;
}

/** One form to draw: a method and its brands (`brands` for a grouped method, else `brand`). */
export type PlannedMethod =
  | { readonly kind: string; readonly brands: readonly string[] }
  | { readonly kind: string; readonly brand: string };

export class Registry {
  private readonly list: MethodDescriptor[] = [];
  /** Drawn before the methods when the session has stored registrations. */
  registrations: ComponentType<RegistrationsProps> | undefined;
  /** Drawn after the methods, outside every form (the modal of challenges and inline flows). */
  readonly overlays: ComponentType[] = [];

  /** Registers a method; registering a name again replaces it. */
  add(method: MethodDescriptor): void {
    const at = this.list.findIndex((m) => m.name === method.name);
    if (at >= 0) this.list.splice(at, 1);
    this.list.push(method);
    this.list.sort((a, b) => a.order - b.order);
  }

  get(name: string): MethodDescriptor | undefined {
    return this.list.find((m) => m.name === name);
  }

  get methods(): readonly MethodDescriptor[] {
    return this.list;
  }

  /** The method that draws a brand, or undefined (the brand is not drawn). */
  methodFor(brand: string): MethodDescriptor | undefined {
    const kind = brandKind(brand);
    if (kind === undefined) return undefined;
    return this.list.find((m) => m.kinds.includes(kind) && (m.accepts === undefined || m.accepts(brand)));
  }

  /**
   * The forms to render, in the order their first brand appears. `accepted`, the brands the
   * checkout's channel accepts (the session's `brands`; undefined: all), drops the others silently.
   */
  plan(brands: readonly string[], accepted?: readonly string[]): PlannedMethod[] {
    const out: PlannedMethod[] = [];
    const groups = new Map<string, string[]>();
    for (const brand of brands) {
      if (accepted !== undefined && !accepted.includes(brand)) continue;
      const method = this.methodFor(brand);
      if (method === undefined) continue;
      if (!method.grouped) {
        out.push({ kind: method.name, brand });
        continue;
      }
      let group = groups.get(method.name);
      if (group === undefined) {
        group = [];
        groups.set(method.name, group);
        out.push({ kind: method.name, brands: group });
      }
      group.push(brand);
    }
    return out;
  }
}

/** The widget's registry, filled by `widget/methods.ts`. */
export const registry = new Registry();
