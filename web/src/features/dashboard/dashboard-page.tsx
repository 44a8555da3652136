import type { Product, Stream } from '@streamshop/contract/catalog.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { useQuery } from '@tanstack/react-query';
import {
  CalendarPlus,
  Crown,
  DollarSign,
  Eye,
  Package,
  Plus,
  Radio,
  Settings,
  ShieldCheck,
  ShoppingBag,
  Video,
} from 'lucide-react';
import { type ComponentType, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { facetsQueryOptions } from '../../lib/api/catalog.ts';
import {
  analyticsQueryOptions,
  myProductsQueryOptions,
  myStreamsQueryOptions,
} from '../../lib/api/dashboard.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { type DashboardTab, dashboardAudience, defaultTabFor, tabFromQuery } from './audience.ts';
import { DeleteProductDialog } from './delete-product-dialog.tsx';
import { EarningsPanel } from './earnings-panel.tsx';
import { OrdersTab } from './orders-tab.tsx';
import { PayoutsNeededNotice } from './payout-account.tsx';
import { ProductDialog } from './product-dialog.tsx';
import { ProductRow } from './product-row.tsx';
import { SalesPanel } from './sales-panel.tsx';
import { SCHEDULE_SHOW_PARAM, ShowsPanel } from './shows-panel.tsx';
import { StartSelling } from './start-selling.tsx';
import { StatCard } from './stat-card.tsx';
import { StreamAnalyticsDialog } from './stream-analytics-dialog.tsx';
import { StreamRow } from './stream-row.tsx';
import { LoadFailed, RowsSkeleton, TabPanelHeader } from './tab-panel-parts.tsx';

const ALL_FACETS = new URLSearchParams();
// Six tabs fit a 390 px phone in 13 px type with narrow padding; a smaller phone scrolls them.
const TAB_TRIGGER = 'px-1 text-[13px] sm:px-3 sm:text-sm';

/** ?onboarding= as Stripe's onboarding sends the seller back (ONBOARDING_RETURN_PATH). */
const onboardingReturn = (value: string | null) =>
  value === 'return' || value === 'refresh' ? value : undefined;

/** The seller's heading and greeting, or a buyer's (see audience.ts); a skeleton until known. */
function DashboardHeading({
  audience,
  handle,
}: {
  audience: 'seller' | 'buyer' | undefined;
  handle?: string;
}) {
  if (audience === undefined) {
    return (
      <div role="status" aria-label="Loading">
        <Skeleton className="h-9 w-64 sm:h-10" />
        <Skeleton className="mt-3 h-6 w-48" />
      </div>
    );
  }
  const seller = audience === 'seller';
  return (
    <div>
      <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">
        {seller ? 'Seller Dashboard' : 'Your Dashboard'}
      </h1>
      <p className="mt-2 text-lg text-muted-foreground" data-testid="dashboard-greeting">
        {seller ? 'Welcome back' : 'Welcome'}
        {handle ? `, @${handle}` : ''}
      </p>
    </div>
  );
}

/**
 * The dashboard; the route only renders it for signed-in users. Sellers get the spec's Seller
 * Dashboard; someone who has not sold yet gets their orders first and a way to start selling.
 * The app layer hands in what other features draw here: the Pro plan's row and the chat settings.
 */
export function DashboardPage({
  PlanSummary,
  ChatSettingsDialog,
}: {
  /** Shown to pro users above the figures. */
  PlanSummary: ComponentType;
  ChatSettingsDialog: ComponentType<{ open: boolean; onOpenChange: (open: boolean) => void }>;
}) {
  usePageTitle('Dashboard');
  const { user } = useAuth();
  const analytics = useQuery(analyticsQueryOptions);
  const products = useQuery(myProductsQueryOptions);
  const streams = useQuery(myStreamsQueryOptions);
  const facets = useQuery(facetsQueryOptions(ALL_FACETS));

  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Product | null>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const [analyzing, setAnalyzing] = useState<Stream | null>(null);
  const [chatSettingsOpen, setChatSettingsOpen] = useState(false);

  const openAdd = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const openEdit = (product: Product) => {
    setEditing(product);
    setDialogOpen(true);
  };

  const stats = analytics.data;
  const audience = dashboardAudience({
    products: products.data?.length,
    streams: streams.data?.length,
    sales: stats?.totalOrders,
    failed: products.isError || streams.isError || analytics.isError,
  });
  // Fixed for the visit once known: deleting the last product does not move a seller's tab.
  const [defaultTab, setDefaultTab] = useState<DashboardTab | undefined>(undefined);
  if (audience && defaultTab === undefined) setDefaultTab(defaultTabFor(audience));
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabFromQuery(searchParams.get('tab')) ?? defaultTab;
  const showTab = (value: string) =>
    setSearchParams(value === defaultTab ? {} : { tab: value }, { replace: true });
  // A buyer's first product: the dialog over their (empty) Products, where it will appear.
  const startSelling = () => {
    showTab('products');
    openAdd();
  };

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">
      <header className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <DashboardHeading audience={audience} handle={user?.handle} />
        <div className="flex flex-wrap gap-2">
          <Link to="/settings" className={buttonClasses({ variant: 'ghost' })} data-testid="settings-link">
            <Settings aria-hidden="true" />
            Settings
          </Link>
          {user?.plan === 'free' ? (
            <Link
              to="/subscribe"
              className={buttonClasses({ variant: 'outline' })}
              data-testid="upgrade-link"
            >
              <Crown className="text-amber-400" aria-hidden="true" />
              Upgrade to Pro
            </Link>
          ) : null}
          {audience === 'buyer' ? null : (
            <Link
              to={`/dashboard?tab=shows&${SCHEDULE_SHOW_PARAM}=new`}
              className={buttonClasses({ variant: 'outline' })}
              data-testid="schedule-show-link"
            >
              <CalendarPlus aria-hidden="true" />
              Schedule a show
            </Link>
          )}
          {audience === 'buyer' ? null : (
            <Link
              to="/golive"
              className={buttonClasses({ className: 'bg-red-600 text-white hover:bg-red-700' })}
              data-testid="go-live-link"
            >
              <Radio aria-hidden="true" />
              Go Live
            </Link>
          )}
        </div>
      </header>

      {audience === 'buyer' && user ? (
        <StartSelling handle={user.handle} onAddProduct={startSelling} />
      ) : null}
      {user?.plan === 'pro' ? <PlanSummary /> : null}

      <section aria-label="Statistics" className="mb-10 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard
          label="Total Views"
          icon={Eye}
          value={stats?.totalViews.toLocaleString('en-US')}
          testId="stat-views"
        />
        <StatCard
          label="Total Orders"
          icon={ShoppingBag}
          value={stats?.totalOrders.toLocaleString('en-US')}
          testId="stat-orders"
          note={
            stats?.totalPurchases
              ? `Not counted: ${stats.totalPurchases.toLocaleString('en-US')} ${stats.totalPurchases === 1 ? 'order' : 'orders'} you placed as a buyer`
              : undefined
          }
        />
        <StatCard
          label="Revenue"
          icon={DollarSign}
          value={stats ? formatCents(stats.totalRevenue) : undefined}
          testId="stat-revenue"
        />
        <StatCard
          label="Products"
          icon={Package}
          value={stats?.totalProducts.toLocaleString('en-US')}
          testId="stat-products"
        />
      </section>

      {tab === undefined ? (
        <RowsSkeleton />
      ) : (
        <Tabs value={tab} onValueChange={showTab}>
          <TabsList aria-label="Dashboard sections" className="max-w-full justify-start overflow-x-auto">
            <TabsTrigger value="products" className={TAB_TRIGGER}>
              Products
            </TabsTrigger>
            <TabsTrigger value="streams" className={TAB_TRIGGER}>
              Streams
            </TabsTrigger>
            <TabsTrigger value="shows" className={TAB_TRIGGER}>
              Shows
            </TabsTrigger>
            <TabsTrigger value="orders" className={TAB_TRIGGER}>
              Orders
            </TabsTrigger>
            <TabsTrigger value="sales" className={TAB_TRIGGER}>
              Sales
            </TabsTrigger>
            <TabsTrigger value="earnings" className={TAB_TRIGGER}>
              Earnings
            </TabsTrigger>
          </TabsList>

          <TabsContent value="products" className="mt-6">
            <PayoutsNeededNotice onOpenEarnings={() => setSearchParams({ tab: 'earnings' })} />
            <TabPanelHeader title="Your Products">
              <Button onClick={openAdd} data-testid="add-product">
                <Plus aria-hidden="true" />
                Add Product
              </Button>
            </TabPanelHeader>
            {products.isPending ? (
              <RowsSkeleton />
            ) : products.isError ? (
              <LoadFailed what="products" />
            ) : products.data.length === 0 ? (
              <EmptyState
                icon={Package}
                title="No Products Yet"
                description="Add your first product to start selling."
                testId="dashboard-products-empty"
              />
            ) : (
              // grid-cols-1 is minmax(0, 1fr): the implicit `auto` column would grow to the longest
              // title and push the page (and every row's buttons) past a phone's width.
              <ul className="grid grid-cols-1 gap-3" aria-label="Your products">
                {products.data.map((product) => (
                  <ProductRow
                    key={product.id}
                    product={product}
                    onEdit={() => openEdit(product)}
                    onDelete={() => setDeleting(product)}
                  />
                ))}
              </ul>
            )}
          </TabsContent>

          <TabsContent value="streams" className="mt-6">
            <TabPanelHeader title="Your Streams">
              <Button
                variant="outline"
                onClick={() => setChatSettingsOpen(true)}
                data-testid="chat-settings-open"
              >
                <ShieldCheck aria-hidden="true" />
                Chat settings
              </Button>
            </TabPanelHeader>
            {streams.isPending ? (
              <RowsSkeleton />
            ) : streams.isError ? (
              <LoadFailed what="streams" />
            ) : streams.data.length === 0 ? (
              <EmptyState
                icon={Video}
                title="No Streams Yet"
                description="Go live to sell in real time; recordings appear here."
              />
            ) : (
              <ul className="grid grid-cols-1 gap-3" aria-label="Your streams">
                {streams.data.map((stream) => (
                  <StreamRow key={stream.id} stream={stream} onAnalytics={() => setAnalyzing(stream)} />
                ))}
              </ul>
            )}
          </TabsContent>

          <TabsContent value="shows" className="mt-6">
            <ShowsPanel />
          </TabsContent>

          <TabsContent value="orders" className="mt-6">
            <OrdersTab />
          </TabsContent>

          <TabsContent value="sales" className="mt-6">
            <SalesPanel />
          </TabsContent>

          <TabsContent value="earnings" className="mt-6">
            <EarningsPanel returnedFrom={onboardingReturn(searchParams.get('onboarding'))} />
          </TabsContent>
        </Tabs>
      )}

      <ProductDialog
        open={dialogOpen}
        product={editing}
        categories={facets.data?.categories ?? []}
        onOpenChange={setDialogOpen}
      />
      <ChatSettingsDialog open={chatSettingsOpen} onOpenChange={setChatSettingsOpen} />
      <StreamAnalyticsDialog
        stream={analyzing}
        onOpenChange={(open) => {
          if (!open) setAnalyzing(null);
        }}
      />
      <DeleteProductDialog
        product={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </div>
  );
}
