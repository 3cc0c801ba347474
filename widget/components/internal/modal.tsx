/**
 * The widget's modal, an overlay of every widget (3-D Secure challenges, inline redirect flows, the
 * wallet sheet): its dialog (`./PaymentModal.tsx`) is a part, which the card form does not wait
 * for. Boot fetches the overlays' parts once the widget is drawn (`preload`), while the shopper
 * types, so a challenge finds it there; drawn before it is loaded, the dialog shows once it is.
 */
import { useEffect } from 'preact/hooks';
import { useWidget } from '../../core/context';
import { lazy } from './lazy';

const Dialog = lazy(() => import('./PaymentModal').then((m) => m.Dialog));

export function PaymentModal() {
  const flow = useWidget().modal.value;
  // A dialog that cannot load (the drawing reports why) ends its flow as cancelled: the form is
  // usable again and the next payment starts afresh.
  useEffect(() => {
    if (flow) void Dialog.preload().then((loaded) => loaded === undefined && flow.end('cancel'));
  }, [flow]);
  return flow ? <Dialog key={flow.name} flow={flow} /> : null;
}

PaymentModal.preload = Dialog.preload;
