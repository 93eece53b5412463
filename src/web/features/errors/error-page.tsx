import { isRouteErrorResponse, useRouteError } from 'react-router';

/**
 * Shown instead of a screen that failed: what happened, and a way back. Plain markup, no Mantine
 * component: it is part of the shell, and must show even when a screen's chunk failed to load.
 */
export default function ErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div className="error-page" role="alert">
      <h1>Something went wrong</h1>
      <p>This screen ran into a problem and could not be shown. Nothing you saved before this has been lost.</p>
      <p className="dimmed">
        If it happens again, tell the Tripdesk team what you were doing and quote: <code>{detail}</code>
      </p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </div>
  );
}
