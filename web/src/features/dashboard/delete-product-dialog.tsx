import type { Product } from '@streamshop/contract/catalog.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { useDeleteProductMutation } from '../../lib/api/dashboard.ts';
import { errorToast } from '../../lib/error-toast.ts';

/** Asks before deleting; success and failure toasts as in spec section 8. */
export function DeleteProductDialog({
  product,
  onOpenChange,
}: {
  product: Product | null;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteProductMutation();

  function confirm() {
    if (!product) return;
    remove.mutate(product.id, {
      onSuccess: () => {
        toast({ title: 'Product deleted successfully!' });
        onOpenChange(false);
      },
      onError: (error) => errorToast('Error', errorMessage(error, 'Something went wrong. Please try again.')),
    });
  }

  return (
    <ConfirmDialog
      open={product !== null}
      onOpenChange={onOpenChange}
      title="Delete Product"
      description={<>Delete “{product?.title}”? Buyers will no longer see it. This cannot be undone.</>}
      cancelLabel="Cancel"
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={confirm}
      testId="delete-dialog"
      confirmTestId="delete-confirm"
    />
  );
}
