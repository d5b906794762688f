/* Pages shared between the checkpoints of one run (checkpoint/FORMAT.md,
 * "Page store"): a run's checkpoints keep their memory pages in one store
 * file beside them, each distinct page once, and hold only references to it
 * (a PREF section instead of PAGE). Content-addressed rather than deltas
 * from the previous checkpoint, so that every checkpoint stays readable
 * alone, in any order, on any node: restoring chunk 900 must not read the
 * 899 before it. */
#ifndef RV_CKPT_PAGES_H
#define RV_CKPT_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "ckpt_file.h"

typedef struct ckpt_page_store ckpt_page_store;

/* A new, empty store at PATH (dies with a reason when it cannot be made). */
ckpt_page_store *ckpt_page_store_create(const char *path);
/* The store's size and its distinct pages so far. */
uint64_t ckpt_page_store_bytes(const ckpt_page_store *s);
uint64_t ckpt_page_store_pages(const ckpt_page_store *s);
/* Written whole: closes the file (dies on a write error) and frees s. */
void ckpt_page_store_close(ckpt_page_store *s);

/* The PREF section standing for PAGE section bytes (address, 4 KiB page)...:
 * pages not in s yet are appended to it. A new buffer, *len set. */
unsigned char *ckpt_page_store_refs(ckpt_page_store *s, const unsigned char *pages, size_t npages_bytes, size_t *len);

/* A checkpoint's PREF section back into PAGE bytes, the store read from the
 * checkpoint's directory; every page checked against its CRC. 0, or -1 with
 * a one-line reason. */
int ckpt_page_store_resolve(const char *ckpt_path, const ckpt_section *pref, unsigned char **pages, size_t *len,
                            char *err, size_t errlen);

#endif
