import type { CategoryFacet, Product } from '@streamshop/contract/catalog.ts';
import { CONDITIONS, type Condition } from '@streamshop/contract/constants.ts';
import { FULFILLMENTS, type Fulfillment } from '@streamshop/contract/shipping.ts';
import { ImageOff, Loader2, Upload } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import { useSaveProductMutation } from '../../lib/api/dashboard.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { useImageUpload } from '../../lib/use-image-upload.tsx';
import {
  emptyProductForm,
  formValuesToBody,
  type ProductFormValues,
  productToFormValues,
  validateProductForm,
} from './product-form.ts';

const CONDITION_LABELS: Record<Condition, string> = { new: 'New', used: 'Used', refurbished: 'Refurbished' };
const FULFILLMENT_LABELS: Record<Fulfillment, string> = {
  ship: 'Shipped to the buyer',
  digital: 'Digital (nothing ships)',
  pickup: 'Picked up by the buyer',
};

type FieldErrors = Partial<Record<keyof ProductFormValues, string>>;

/** Server field names (VALIDATION_FAILED `fields`) to the form's. */
function toFormErrors(fields: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = key === 'priceCents' ? 'price' : key === 'shippingCents' ? 'shipping' : key;
    if (field in emptyProductForm()) errors[field as keyof ProductFormValues] = message;
  }
  return errors;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-red-400 text-xs" role="alert">
      {message}
    </p>
  );
}

const textareaClasses =
  'flex min-h-20 w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground md:text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background';

function ProductForm({
  product,
  categories,
  onDone,
}: {
  product: Product | null;
  categories: CategoryFacet[];
  onDone: () => void;
}) {
  const uid = useId();
  const ids = (name: string) => `${uid}-${name}`;
  const [values, setValues] = useState<ProductFormValues>(() =>
    product ? productToFormValues(product) : emptyProductForm(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveProductMutation();

  const set = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };
  const describedBy = (key: keyof ProductFormValues) => (errors[key] ? ids(`${key}-error`) : undefined);

  const upload = useImageUpload((url) => set('imageUrl', url), 'product-image-file');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = validateProductForm(values);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      return;
    }
    save.mutate(
      { id: product?.id ?? null, body: formValuesToBody(values) },
      {
        onSuccess: () => {
          toast({ title: product ? 'Product updated successfully!' : 'Product created successfully!' });
          onDone();
        },
        onError: (error) => {
          setErrors(toFormErrors(extractFieldErrors(error)));
          errorToast('Error', errorMessage(error, 'Something went wrong. Please try again.'));
        },
      },
    );
  }

  const busy = save.isPending || upload.uploading;

  return (
    <form className="flex min-h-0 flex-col gap-4" onSubmit={onSubmit} noValidate data-testid="product-form">
      {/* The fields scroll; the heading above and the buttons below stay in view. */}
      <div className="-mx-6 grid min-h-0 flex-1 gap-4 overflow-y-auto px-6 py-1">
        <div className="grid gap-2">
          <Label htmlFor={ids('title')}>Title</Label>
          <Input
            id={ids('title')}
            value={values.title}
            maxLength={200}
            required
            aria-invalid={!!errors.title}
            aria-describedby={describedBy('title')}
            onChange={(e) => set('title', e.target.value)}
            data-testid="product-title-input"
          />
          <FieldError id={ids('title-error')} message={errors.title} />
        </div>

        <div className="grid gap-2">
          <Label htmlFor={ids('description')}>Description</Label>
          <textarea
            id={ids('description')}
            className={textareaClasses}
            value={values.description}
            maxLength={5000}
            rows={3}
            aria-invalid={!!errors.description}
            aria-describedby={describedBy('description')}
            onChange={(e) => set('description', e.target.value)}
            data-testid="product-description-input"
          />
          <FieldError id={ids('description-error')} message={errors.description} />
        </div>

        <div className="grid grid-cols-2 items-start gap-4">
          <div className="grid gap-2">
            <Label htmlFor={ids('price')}>Price (USD)</Label>
            <Input
              id={ids('price')}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              placeholder="0.00"
              value={values.price}
              aria-invalid={!!errors.price}
              aria-describedby={describedBy('price')}
              onChange={(e) => set('price', e.target.value)}
              data-testid="product-price-input"
            />
            <FieldError id={ids('price-error')} message={errors.price} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids('stock')}>Stock</Label>
            <Input
              id={ids('stock')}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={values.stock}
              aria-invalid={!!errors.stock}
              aria-describedby={describedBy('stock')}
              onChange={(e) => set('stock', e.target.value)}
              data-testid="product-stock-input"
            />
            <FieldError id={ids('stock-error')} message={errors.stock} />
          </div>
        </div>

        <div className="grid items-start gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={ids('condition')}>Condition</Label>
            <Select value={values.condition} onValueChange={(value) => set('condition', value as Condition)}>
              <SelectTrigger id={ids('condition')} data-testid="product-condition-select">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {CONDITIONS.map((condition) => (
                  <SelectItem key={condition} value={condition}>
                    {CONDITION_LABELS[condition]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids('categoryId')}>Category</Label>
            <Select value={values.categoryId} onValueChange={(value) => set('categoryId', value)}>
              <SelectTrigger
                id={ids('categoryId')}
                aria-invalid={!!errors.categoryId}
                aria-describedby={describedBy('categoryId')}
                data-testid="product-category-select"
              >
                <SelectValue placeholder="Choose a category" />
              </SelectTrigger>
              <SelectContent>
                {categories.map((category) => (
                  <SelectItem key={category.id} value={String(category.id)}>
                    {category.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FieldError id={ids('categoryId-error')} message={errors.categoryId} />
          </div>
        </div>

        <div className="grid items-start gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={ids('fulfillment')}>Delivery</Label>
            <Select
              value={values.fulfillment}
              onValueChange={(value) => set('fulfillment', value as Fulfillment)}
            >
              <SelectTrigger id={ids('fulfillment')} data-testid="product-fulfillment-select">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {FULFILLMENTS.map((fulfillment) => (
                  <SelectItem key={fulfillment} value={fulfillment}>
                    {FULFILLMENT_LABELS[fulfillment]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {values.fulfillment === 'ship' ? (
            <div className="grid gap-2">
              <Label htmlFor={ids('shipping')}>Shipping (USD, flat)</Label>
              <Input
                id={ids('shipping')}
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                placeholder="0.00 (free)"
                value={values.shipping}
                aria-invalid={!!errors.shipping}
                aria-describedby={describedBy('shipping')}
                onChange={(e) => set('shipping', e.target.value)}
                data-testid="product-shipping-input"
              />
              <FieldError id={ids('shipping-error')} message={errors.shipping} />
            </div>
          ) : null}
        </div>

        <fieldset className="grid gap-2">
          <legend className="mb-2 font-medium text-sm leading-none">Image</legend>
          <div className="flex items-start gap-3">
            <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border border-border bg-muted">
              {values.imageUrl ? (
                <img
                  src={values.imageUrl}
                  alt="Product preview"
                  width={80}
                  height={80}
                  className="size-full object-cover"
                />
              ) : (
                <ImageOff className="size-6 text-muted-foreground" aria-hidden="true" />
              )}
            </div>
            <div className="grid flex-1 gap-2">
              {upload.input}
              <Button
                variant="outline"
                size="sm"
                className="justify-self-start"
                disabled={upload.uploading}
                onClick={upload.choose}
              >
                {upload.uploading ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <Upload aria-hidden="true" />
                )}
                {upload.uploading ? 'Uploading...' : 'Upload image'}
              </Button>
              <p className="text-muted-foreground text-xs">JPEG, PNG or WebP, up to 5 MB.</p>
            </div>
          </div>
          <Label htmlFor={ids('imageUrl')} className="mt-1">
            Image URL
          </Label>
          <Input
            id={ids('imageUrl')}
            type="text"
            inputMode="url"
            placeholder="https://example.com/photo.jpg"
            value={values.imageUrl}
            aria-invalid={!!errors.imageUrl}
            aria-describedby={describedBy('imageUrl')}
            onChange={(e) => set('imageUrl', e.target.value)}
            data-testid="product-image-url-input"
          />
          <FieldError id={ids('imageUrl-error')} message={errors.imageUrl} />
        </fieldset>
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy} data-testid="product-submit">
          {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {product ? 'Save Changes' : 'Create Product'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Add mode (product null) or edit mode; Cancel or success closes it, and it opens with a fresh form. */
export function ProductDialog({
  open,
  product,
  categories,
  onOpenChange,
}: {
  open: boolean;
  product: Product | null;
  categories: CategoryFacet[];
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col overflow-hidden sm:max-w-xl" data-testid="product-dialog">
        <DialogHeader>
          <DialogTitle>{product ? 'Edit Product' : 'Add Product'}</DialogTitle>
          <DialogDescription>
            {product ? 'Update the details buyers see.' : 'List a new product in your storefront.'}
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <ProductForm
            key={product?.id ?? 'new'}
            product={product}
            categories={categories}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
