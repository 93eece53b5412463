import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { type RouteName, routes } from '../../contract/paths.ts';
import { SCREEN_NEEDS } from '../lib/nav.ts';
import type { Permission } from '../../contract/permissions.ts';
import { PageLoader } from '../components/page-loader.tsx';
import ErrorPage from '../features/errors/error-page.tsx';
import { isStaff, useCan, useCurrentUser } from '../lib/session.tsx';

// every screen but the shell is its own chunk (DESIGN.md budget)
// the layout too: the sign-in page does not need its menus and popovers
const Layout = lazy(() => import('./layout.tsx').then((m) => ({ default: m.Layout })));
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const StaffOnlyPage = lazy(() => import('../features/auth/staff-only-page.tsx'));
const NotFoundPage = lazy(() => import('../components/not-found-page.tsx'));
const DashboardPage = lazy(() => import('../features/overview/dashboard-page.tsx'));
const CharityListPage = lazy(() => import('../features/charities/charity-list-page.tsx'));
const CharityEditPage = lazy(() => import('../features/charities/charity-edit-page.tsx'));
const DiscountListPage = lazy(() => import('../features/discounts/discount-list-page.tsx'));
const DiscountFormPage = lazy(() => import('../features/discounts/discount-form-page.tsx'));
const BookingListPage = lazy(() => import('../features/bookings/booking-list-page.tsx'));
const BookingPage = lazy(() => import('../features/bookings/booking-page.tsx'));
const TripListPage = lazy(() => import('../features/trips/trip-list-page.tsx'));
const TripEditPage = lazy(() => import('../features/trips/trip-edit-page.tsx'));
const ReadinessPage = lazy(() => import('../features/readiness/readiness-page.tsx'));
const UserListPage = lazy(() => import('../features/users/user-list-page.tsx'));
const UserEditPage = lazy(() => import('../features/users/user-edit-page.tsx'));
const InvoicePage = lazy(() => import('../features/invoices/invoice-page.tsx'));
const DeveloperPage = lazy(() => import('../features/developer/developer-page.tsx'));
const AuditPage = lazy(() => import('../features/audit/audit-page.tsx'));
const JobsPage = lazy(() => import('../features/jobs/jobs-page.tsx'));
const RetentionPage = lazy(() => import('../features/retention/retention-page.tsx'));
const MoneyDuePage = lazy(() => import('../features/money/money-due-page.tsx'));
const EmailTemplatesPage = lazy(() => import('../features/settings/email-templates-page.tsx'));
const CountriesPage = lazy(() => import('../features/settings/countries-page.tsx'));
const ChangesPage = lazy(() => import('../features/settings/changes-page.tsx'));
const TeamsPage = lazy(() => import('../features/settings/teams-page.tsx'));
const RequestsPage = lazy(() => import('../features/bookings/requests-page.tsx'));
const ReportsPage = lazy(() => import('../features/reports/reports-page.tsx'));
const CharityPortalPage = lazy(() => import('../features/charity-portal/portal-page.tsx'));

const fallback = <PageLoader />;

/** A screen the member's team may not read (issue 36) is a page that says so; none of its requests is made. */
function Needs({ permission, children }: { permission: Permission | undefined; children: ReactNode }) {
  const may = useCan();
  if (!permission || may(permission, 'read')) return children;
  return (
    <Page>
      <StaffOnlyPage permission={permission} />
    </Page>
  );
}

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={fallback}>{children}</Suspense>;
}

/**
 * Back-office screens: Charity and End User accounts are shown the staff-only page instead (which
 * sends a Charity user coming to the home page on to their charity portal).
 */
function StaffOnly() {
  const user = useCurrentUser();
  return isStaff(user) ? (
    <Outlet />
  ) : (
    <Page>
      <StaffOnlyPage />
    </Page>
  );
}

// a new discount's form is a fresh one, not the last edited one's
const NewDiscountPage = () => <DiscountFormPage key="new" />;

/** Each back-office screen by its route's name; its path and what its team needs to read it are looked up. */
const staffScreens: Array<[RouteName, ComponentType]> = [
  ['booking-list', BookingListPage],
  ['booking-view', BookingPage],
  ['trip-list', TripListPage],
  ['trip-edit', TripEditPage],
  ['trip-readiness', ReadinessPage],
  ['charity-list', CharityListPage],
  ['charity-edit', CharityEditPage],
  ['discount-list', DiscountListPage],
  ['discount-new', NewDiscountPage],
  ['discount-edit', DiscountFormPage],
  ['user-list', UserListPage],
  ['user-edit', UserEditPage],
  ['invoice-view', InvoicePage],
  ['audit', AuditPage],
  ['admin-jobs', JobsPage],
  ['admin-retention', RetentionPage],
  ['money-due', MoneyDuePage],
  ['reports', ReportsPage],
  ['settings-emails', EmailTemplatesPage],
  ['settings-countries', CountriesPage],
  ['settings-changes', ChangesPage],
  ['settings-teams', TeamsPage],
  ['change-requests', RequestsPage],
];

export const router = createBrowserRouter([
  {
    path: routes.login,
    element: (
      <Page>
        <LoginPage />
      </Page>
    ),
    errorElement: <ErrorPage />,
  },
  {
    element: (
      <Page>
        <Layout />
      </Page>
    ),
    errorElement: <ErrorPage />,
    children: [
      {
        path: routes.developer,
        element: (
          <Page>
            <DeveloperPage />
          </Page>
        ),
      },
      {
        path: routes['charity-portal'],
        element: (
          <Page>
            <CharityPortalPage />
          </Page>
        ),
      },
      {
        element: <StaffOnly />,
        errorElement: <ErrorPage />,
        children: [
          {
            path: routes.home,
            element: (
              <Page>
                <DashboardPage />
              </Page>
            ),
          },
          ...staffScreens.map(([name, Component]) => ({
            path: routes[name],
            element: (
              <Needs permission={SCREEN_NEEDS[name]}>
                <Page>
                  <Component />
                </Page>
              </Needs>
            ),
          })),
        ],
      },
      {
        path: '*',
        element: (
          <Page>
            <NotFoundPage />
          </Page>
        ),
      },
    ],
  },
]);
