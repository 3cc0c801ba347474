/**
 * The administration dashboard's entry (widget/admin/index.html → dist/admin/, served at /admin/
 * by server/http/routes/dashboard.ts): the session is read once, then the app renders the page
 * the location's hash names (router.ts).
 */
import { render } from 'preact';
import { App } from './App';
import { loadSession } from './state/session';
import './styles.css';

const root = document.getElementById('app');
if (root !== null) {
  render(<App />, root);
  void loadSession();
}
