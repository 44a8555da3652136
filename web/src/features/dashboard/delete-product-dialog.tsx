import type { Product } from '@streamshop/contract/catalog.ts';
import { Loader2 } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { useDeleteProductMutation } from './api.ts';

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
    <Dialog open={product !== null} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog" data-testid="delete-dialog">
        <DialogHeader>
          <DialogTitle>Delete Product</DialogTitle>
          <DialogDescription>
            Delete “{product?.title}”? Buyers will no longer see it. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={confirm}
            disabled={remove.isPending}
            data-testid="delete-confirm"
          >
            {remove.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Delete
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
