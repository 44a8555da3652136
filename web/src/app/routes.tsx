import type { RouteObject } from 'react-router';
import { loadRoomPage } from './early-room.ts';
import { FullScreenSpinner } from './full-screen-spinner.tsx';
import { HomeRoute } from './home-route.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RequireSignedIn } from './require-signed-in.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

const GO_LIVE_NOTICE = {
  title: 'Authentication Required',
  description: 'Please sign in to start a live stream.',
};

// Feature pages load on demand so the first paint only carries the shell.
const marketplace = async () => ({
  Component: (await import('../features/catalog/marketplace-page.tsx')).MarketplacePage,
});
const streamDiscPages = () => import('../features/marketing/stream-disc-page.tsx');
const sitePages = () => import('../features/site/site-pages.tsx');

/** Every route of spec section 2's route table. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: FullScreenSpinner,
    children: [
      { index: true, Component: HomeRoute },
      {
        path: 'signin',
        lazy: async () => ({
          Component: (await import('../features/auth/sign-in-page.tsx')).SignInPage,
        }),
      },
      {
        path: 'signup',
        lazy: async () => ({
          Component: (await import('../features/auth/sign-up-page.tsx')).SignUpPage,
        }),
      },
      {
        path: 'forgot-password',
        lazy: async () => ({
          Component: (await import('../features/auth/forgot-password-page.tsx')).ForgotPasswordPage,
        }),
      },
      {
        path: 'reset-password',
        lazy: async () => ({
          Component: (await import('../features/auth/reset-password-page.tsx')).ResetPasswordPage,
        }),
      },
      {
        path: 'verify-email',
        lazy: async () => ({
          Component: (await import('../features/auth/verify-email-page.tsx')).VerifyEmailPage,
        }),
      },
      {
        path: 'confirm-email',
        lazy: async () => ({
          Component: (await import('../features/settings/confirm-email-page.tsx')).ConfirmEmailPage,
        }),
      },
      {
        path: 'link-account',
        lazy: async () => ({
          Component: (await import('../features/auth/link-account-page.tsx')).LinkAccountPage,
        }),
      },
      {
        path: 'mission',
        lazy: async () => ({
          Component: (await import('../features/marketing/mission-page.tsx')).MissionPage,
        }),
      },
      {
        path: 'social-impact',
        lazy: async () => ({
          Component: (await import('../features/marketing/social-impact-page.tsx')).SocialImpactPage,
        }),
      },
      {
        path: 'about',
        lazy: async () => ({
          Component: (await import('../features/marketing/about-page.tsx')).AboutPage,
        }),
      },
      {
        path: 'team',
        lazy: async () => ({
          Component: (await import('../features/marketing/team-page.tsx')).TeamPage,
        }),
      },
      {
        path: 'blog',
        lazy: async () => ({
          Component: (await import('../features/marketing/blog-page.tsx')).BlogPage,
        }),
      },
      {
        path: 'social',
        lazy: async () => ({
          Component: (await import('../features/marketing/social-page.tsx')).SocialPage,
        }),
      },
      { path: 'help', lazy: async () => ({ Component: (await sitePages()).HelpPage }) },
      { path: 'privacy', lazy: async () => ({ Component: (await sitePages()).PrivacyPage }) },
      { path: 'terms', lazy: async () => ({ Component: (await sitePages()).TermsPage }) },
      {
        path: 'contact',
        lazy: async () => ({
          Component: (await import('../features/site/contact-page.tsx')).ContactPage,
        }),
      },
      {
        path: 'stream-disc',
        lazy: async () => ({ Component: (await streamDiscPages()).StreamDiscLandingPage }),
      },
      {
        path: 'stream-disc/music',
        lazy: async () => ({ Component: (await streamDiscPages()).StreamDiscMusicPage }),
      },
      {
        path: 'stream-disc/film',
        lazy: async () => ({ Component: (await streamDiscPages()).StreamDiscFilmPage }),
      },
      { path: 'explore', lazy: marketplace },
      { path: 'search', lazy: marketplace },
      { path: 'c/:slug', lazy: marketplace },
      {
        Component: RequireSignedIn,
        children: [
          {
            path: 'dashboard',
            lazy: async () => ({
              Component: (await import('./dashboard-route.tsx')).DashboardRoute,
            }),
          },
          {
            path: 'settings',
            lazy: async () => ({
              Component: (await import('../features/settings/settings-page.tsx')).SettingsPage,
            }),
          },
          {
            path: 'orders',
            lazy: async () => ({
              Component: (await import('../features/orders/orders-page.tsx')).OrdersPage,
            }),
          },
          {
            path: 'following',
            lazy: async () => ({
              Component: (await import('../features/following/following-page.tsx')).FollowingPage,
            }),
          },
          {
            path: 'notifications',
            lazy: async () => ({
              Component: (await import('../features/following/notifications-page.tsx')).NotificationsPage,
            }),
          },
        ],
      },
      {
        path: 'shows/:id',
        lazy: async () => ({
          Component: (await import('../features/shows/show-page.tsx')).ShowPage,
        }),
      },
      {
        path: 'unsubscribe',
        lazy: async () => ({
          Component: (await import('../features/following/unsubscribe-page.tsx')).UnsubscribePage,
        }),
      },
      {
        element: <RequireSignedIn notice={GO_LIVE_NOTICE} />,
        children: [
          {
            path: 'golive',
            lazy: async () => ({
              Component: (await import('../features/room/go-live-page.tsx')).GoLivePage,
            }),
          },
        ],
      },
      {
        path: 's/:handle',
        lazy: async () => ({
          Component: (await import('../features/storefront/storefront-page.tsx')).StorefrontPage,
        }),
      },
      {
        path: 'products/:id',
        lazy: async () => ({
          Component: (await import('../features/product/product-page.tsx')).ProductPage,
        }),
      },
      {
        path: 'room/:name',
        lazy: async () => ({
          Component: (await loadRoomPage()).RoomPage,
        }),
      },
      {
        path: 'checkout/:productId',
        lazy: async () => ({
          Component: (await import('../features/checkout/checkout-page.tsx')).CheckoutPage,
        }),
      },
      {
        path: 'pay/:id',
        lazy: async () => ({
          Component: (await import('../features/payments/hosted-payment-page.tsx')).HostedPaymentPage,
        }),
      },
      {
        path: 'subscribe',
        lazy: async () => ({
          Component: (await import('../features/subscribe/subscribe-page.tsx')).SubscribePage,
        }),
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
