/** The session's stored registrations (one-click), drawn before the methods when it has any. */
import { registry } from '../../core/registry';
import { OneClick } from './OneClick';

registry.registrations = OneClick;
