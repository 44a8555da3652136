import { createBrowserRouter, RouterProvider } from 'react-router';
import { authUserQueryKey } from '../features/auth/api.ts';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

// Spec section 6: a 401 'Unauthorized' from any query means the session is gone: re-check the
// auth state (now signed out) and go home.
const queryClient = createQueryClient({
  onUnauthorized: () => {
    void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    void router.navigate('/');
  },
});

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
