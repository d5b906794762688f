/* Writing jansson values to files atomically. */
#ifndef RV_JSON_OUT_H
#define RV_JSON_OUT_H

#include <jansson.h>

/* Write VALUE (indented, keys in insertion order) to PATH atomically; "-" is stdout. */
void json_write_file(const char *path, json_t *value);

#endif
