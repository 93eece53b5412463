/** A loading indicator that screen readers announce (plain markup: it is part of the shell). */
export function PageLoader() {
  return (
    <div className="page-loader" role="status">
      <span aria-hidden="true" />
      <span className="visually-hidden-label">Loading…</span>
    </div>
  );
}
