/** The widget's shared overlays: the modal of 3-D Secure challenges and inline flows. */
import { registry } from '../../core/registry';
import { PaymentModal } from './modal';

registry.overlays.push(PaymentModal);
