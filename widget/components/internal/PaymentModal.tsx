/**
 * The widget's modal (`div.wpwl-modal > div.wpwl-modal-dialog[role=dialog]`): a 3-D Secure challenge
 * or an inline redirect flow in `iframe.wpwl-target`, into which a hidden form POSTs the gateway's
 * redirect parameters with `returnMode=message`. It ends when the gateway's page in that iframe
 * (and only that window, with the gateway's origin) posts `{source: 'wpwl-gateway', type:
 * 'async-complete'}`, or when the shopper closes it (close button, Escape). A flow with `src`
 * (the wallet sheet, `iframe.wpwl-target.wpwl-sheet`) loads that gateway document instead, and
 * its messages (same checks) go to the flow. Focus moves into the dialog, stays there while it is
 * open, and goes back to where it was when the submission ends (submit.ts).
 *
 * A part of the widget (widget/build/parts.ts), fetched once the widget is drawn (`./modal.tsx`).
 */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { useWidget, type WidgetContext } from '../../core/context';
import { callback } from '../../core/options';
import { CHALLENGE_SIZES, isCompletion, type ModalFlow } from './redirect';

/** A part (./modal.tsx draws it when a flow needs it): the dialog of one flow. */
export function Dialog({ flow }: { flow: ModalFlow }) {
  const ctx = useWidget();
  const dialog = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const titleId = `${flow.name}-title`;

  useFlowListeners(ctx, flow, { dialog, frame, form });

  const onLoad = (event: Event) => {
    if (flow.src) return;
    // The iframe itself: its first load (the empty document, on insertion) comes before Preact
    // sets the ref, so `frame.current` would still be null then.
    const el = event.currentTarget as HTMLIFrameElement;
    // The empty document every iframe starts with is not the flow's page.
    try {
      if (el.contentWindow?.location.href === 'about:blank') return;
    } catch {
      // Cross-origin: the gateway's (or the issuer's) page.
    }
    callback(ctx.options, 'onLoadThreeDIframe', el);
  };

  const [width, height] = flow.size === 5 ? ['100%', '100%'] : CHALLENGE_SIZES[flow.size];
  return (
    <div class="wpwl-modal">
      <div
        ref={dialog}
        class={`wpwl-modal-dialog wpwl-modal-size-${flow.size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div class="wpwl-modal-header">
          <h2 class="wpwl-modal-title" id={titleId}>
            {flow.title}
          </h2>
          <button
            type="button"
            class="wpwl-modal-close"
            aria-label={ctx.strings.labels.close}
            title={ctx.strings.labels.close}
            onClick={() => flow.end('cancel')}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <iframe
          ref={frame}
          class={flow.src ? 'wpwl-target wpwl-sheet' : 'wpwl-target'}
          src={flow.src}
          name={flow.name}
          title={flow.title}
          width={width}
          height={height}
          allow="payment"
          onLoad={onLoad}
        />
        {flow.form ? (
          <form ref={form} hidden method={flow.form.method} action={flow.form.action} target={flow.name}>
            {flow.form.fields.map(([name, value], i) => (
              <input key={`${i}:${name}`} type="hidden" name={name} value={value} />
            ))}
          </form>
        ) : null}
      </div>
    </div>
  );
}

interface DialogRefs {
  readonly dialog: RefObject<HTMLDivElement | null>;
  readonly frame: RefObject<HTMLIFrameElement | null>;
  readonly form: RefObject<HTMLFormElement | null>;
}

/**
 * While the dialog is open: the iframe's messages (the flow's own, or the gateway's completion),
 * Escape, and focus kept inside; at once, focus on the dialog and the redirect form posted.
 */
function useFlowListeners(ctx: WidgetContext, flow: ModalFlow, { dialog, frame, form }: DialogRefs): void {
  useLayoutEffect(() => {
    const { win, doc } = ctx;
    const origin = ctx.bus.gatewayOrigin;
    const onMessage = (event: MessageEvent) => {
      const w = frame.current?.contentWindow;
      if (flow.receive) {
        if (w && event.source === w && event.origin === origin)
          flow.receive(event.data, (message) => w.postMessage(message, origin));
      } else if (isCompletion(event, origin, w)) flow.end('complete');
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' || event.key === 'Esc') {
        event.preventDefault();
        flow.end('cancel');
      }
    };
    // aria-modal: focus that leaves the dialog comes back to it.
    const onFocusIn = (event: FocusEvent) => {
      const el = dialog.current;
      if (el && !el.contains(event.target as Node | null)) el.focus();
    };
    win.addEventListener('message', onMessage);
    doc.addEventListener('keydown', onKey, true);
    doc.addEventListener('focusin', onFocusIn);
    dialog.current?.focus();
    form.current?.submit();
    return () => {
      win.removeEventListener('message', onMessage);
      doc.removeEventListener('keydown', onKey, true);
      doc.removeEventListener('focusin', onFocusIn);
      // Focus goes back to what had it when the submission has ended (submit.ts), not here: after
      // a completed flow the pay button stays disabled until the session has been read.
    };
  }, [flow]);
}
