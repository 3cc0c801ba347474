/**
 * A payment form of plain fields that hold no card data (SEPA direct debit, virtual account, gift
 * card, and the field-less redirect brands and wallets): the page posts it to the gateway itself,
 * unless a `send` of its own does (a wallet's, after its sheet).
 */
import { type Signal, signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { Money } from '../../core/amount';
import type { Fields } from '../../core/api';
import { useWidget, type WidgetContext } from '../../core/context';
import { callback, type WpwlOptions } from '../../core/options';
import { Group, Message, TextInput } from './Field';
import { enterGuard, type FormModel, formModel, merchantFields, setError } from './form-model';
import { PayButton } from './PayButton';
import { direct, type Send, submitForm } from './submit';

export interface FieldSpec {
  /** Group and control class suffix: wpwl-group-<key>, wpwl-control-<key>. */
  readonly key: string;
  /** The request parameter it fills. */
  readonly parameter: string;
  readonly label: string;
  readonly placeholder?: string;
  readonly autocomplete: string;
  readonly inputMode?: 'text' | 'numeric';
  readonly type?: 'text' | 'password';
  readonly maxLength?: number;
  readonly dir?: 'ltr' | 'rtl';
  /** Display formatting while typing. */
  readonly display?: (value: string) => string;
  /** What is sent (default: the trimmed value). */
  readonly send?: (value: string) => string;
  readonly valid: (value: string) => boolean;
  /** The message shown when the value is not valid (here or at the gateway). */
  readonly error: string;
}

export interface SimpleFormProps {
  /** wpwl-container-<kind>, wpwl-form-<kind>, and wpwl-form-<kind>-<BRAND>. */
  readonly kind: string;
  readonly brand: string;
  readonly fields: readonly FieldSpec[];
  /** Parameters derived from the fields (bankAccount.country and bankCode from the IBAN). */
  readonly extra?: (values: Readonly<Record<string, string>>) => Fields;
  readonly before?: keyof WpwlOptions;
  readonly payLabel: string;
  readonly buttonClass?: string;
  readonly buttonAttrs?: Readonly<Record<string, string>>;
  /** The brand whose logo the pay button shows (redirect methods, wallets). */
  readonly logo?: string;
  /** How the form is sent (default: a POST from the page). */
  readonly send?: Send;
  /** `send` opens the widget's modal. */
  readonly opensModal?: boolean;
  /** What the form shows before a checkout exists (fast checkout), when not wpwlOptions.checkout. */
  readonly shown?: () => Money;
  readonly note?: ComponentChildren;
}

interface Model {
  readonly form: FormModel;
  readonly values: Signal<Readonly<Record<string, string>>>;
  readonly ids: Readonly<Record<string, string>>;
  element: HTMLFormElement | null;
}

export function SimpleForm(props: SimpleFormProps) {
  const ctx = useWidget();
  const model = useMemo<Model>(
    () => ({
      form: formModel(),
      values: signal({}),
      ids: Object.fromEntries(props.fields.map((f) => [f.key, ctx.uid(`${props.kind}-${f.key}`)])),
      element: null,
    }),
    [],
  );
  const { kind, brand } = props;
  return (
    <div class={`wpwl-container wpwl-container-${kind} wpwl-container-${kind}-${brand} wpwl-clearfix`}>
      <form
        class={`wpwl-form wpwl-form-${kind} wpwl-form-${kind}-${brand} wpwl-clearfix`}
        noValidate
        ref={(el) => {
          model.element = el;
        }}
        onSubmit={(e) => {
          e.preventDefault();
          void submit(ctx, model, props, e);
        }}
        onKeyDown={enterGuard(ctx.settings.disableSubmitOnEnter)}
      >
        <FormMessage model={model} />
        {props.fields.map((spec) => (
          <SimpleField key={spec.key} spec={spec} model={model} />
        ))}
        {props.note}
        <PayButton
          model={model.form}
          label={props.payLabel}
          extraClass={props.buttonClass}
          attrs={props.buttonAttrs}
          logo={props.logo}
        />
      </form>
    </div>
  );
}

function FormMessage({ model }: { model: Model }) {
  return <Message text={model.form.message.value} />;
}

const check = (spec: FieldSpec, value: string) => (spec.valid(value) ? undefined : spec.error);

function SimpleField({ spec, model }: { spec: FieldSpec; model: Model }) {
  const error = model.form.errors.value[spec.key];
  const id = model.ids[spec.key]!;
  const value = model.values.value[spec.parameter] ?? '';
  const recheck = () => {
    if (model.form.errors.peek()[spec.key] !== undefined)
      setError(model.form, spec.key, check(spec, current()));
  };
  const current = () => model.values.peek()[spec.parameter] ?? '';
  return (
    <Group name={spec.key} label={spec.label} controlId={id} error={error}>
      <TextInput
        id={id}
        name={spec.parameter}
        cls={spec.key}
        label={spec.label}
        value={value}
        error={error}
        placeholder={spec.placeholder ?? spec.label}
        autocomplete={spec.autocomplete}
        inputMode={spec.inputMode}
        type={spec.type}
        maxLength={spec.maxLength}
        dir={spec.dir}
        onInput={(raw, input) => {
          const next = spec.display ? spec.display(raw) : raw;
          model.values.value = { ...model.values.peek(), [spec.parameter]: next };
          if (input.value !== next) input.value = next;
          recheck();
        }}
        onBlur={() => {
          if (current() === '' && !model.form.touched.has(spec.key)) return;
          model.form.touched.add(spec.key);
          setError(model.form, spec.key, check(spec, current()));
        }}
      />
    </Group>
  );
}

async function submit(ctx: WidgetContext, model: Model, props: SimpleFormProps, event: Event) {
  const element = model.element;
  if (element === null || model.form.submitting.peek()) return;
  const values = model.values.peek();
  const errors: Record<string, string> = {};
  for (const spec of props.fields) {
    model.form.touched.add(spec.key);
    const message = check(spec, values[spec.parameter] ?? '');
    if (message !== undefined) errors[spec.key] = message;
  }
  model.form.errors.value = errors;
  const proceed = props.before === undefined || callback(ctx.options, props.before, element, event) !== false;
  const first = props.fields.find((f) => errors[f.key] !== undefined);
  if (first !== undefined) {
    ctx.announce.value = errors[first.key]!;
    (ctx.doc.getElementById(model.ids[first.key]!) as HTMLInputElement | null)?.focus();
    return;
  }
  if (!proceed) return;
  const own = new Set(['paymentBrand', ...props.fields.map((f) => f.parameter)]);
  const fields: [string, string][] = [['paymentBrand', props.brand]];
  for (const spec of props.fields) {
    const raw = values[spec.parameter] ?? '';
    const value = spec.send ? spec.send(raw) : raw.trim();
    if (value !== '') fields.push([spec.parameter, value]);
  }
  for (const [name, value] of props.extra?.(values) ?? []) {
    own.add(name);
    fields.push([name, value]);
  }
  fields.push(...merchantFields(element, own));
  const byParameter = new Map(props.fields.map((f) => [f.parameter, f]));
  await submitForm(ctx, model.form, {
    brand: props.brand,
    fields,
    fieldOf: (parameter) => byParameter.get(parameter)?.key,
    errorFor: (key) => props.fields.find((f) => f.key === key)?.error ?? ctx.strings.errorMessages.declined,
    send: props.send ?? direct(ctx),
    opensModal: props.opensModal,
    shown: props.shown,
  });
}
