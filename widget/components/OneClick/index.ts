/**
 * The session's stored registrations (one-click), drawn before the methods when it has any. Few
 * checkouts have them: the form is a part of the widget, fetched when first drawn.
 */
import { registry } from '../../core/registry';
import { lazy } from '../internal/lazy';

registry.registrations = lazy(() => import('./OneClick').then((m) => m.OneClick));
