import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * The form's resolver for a contract schema that loads, with zod, the first time the form is
 * validated (on submit): a screen's first visit does not carry zod. The schema is
 * still the shared contract's, as on the server.
 *
 *   resolver: lazyZodResolver(() => import('../../../contract/users.ts').then((m) => m.updateUserSchema))
 */
export function lazyZodResolver<TValues extends FieldValues, TOutput = TValues>(
  loadSchema: () => Promise<ZodType>,
  options: { raw?: boolean } = {},
): Resolver<TValues, unknown, TOutput> {
  let resolver: Promise<Resolver<TValues, unknown, TOutput>> | undefined;
  return (values, context, resolverOptions) => {
    resolver ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([{ zodResolver }, schema]) =>
        zodResolver(schema as never, undefined, options as never) as unknown as Resolver<TValues, unknown, TOutput>,
    );
    // a chunk that failed to load (a deploy in between) is tried again on the next submit
    resolver.catch(() => (resolver = undefined));
    return resolver.then((resolve) => resolve(values, context, resolverOptions));
  };
}
