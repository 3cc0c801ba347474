import { Page } from '../components/Page';
import { href } from '../router';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no page here. <a href={href('/')}>Go to the start page</a>.
      </p>
    </Page>
  );
}
