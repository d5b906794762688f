#include "ckpt/ckpt_task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- save */

/* A siginfo as 256 hex digits. */
static json_t *siginfo_json(const rv_siginfo *info)
{
    char hex[2 * sizeof *info + 1];
    const unsigned char *b = (const unsigned char *)info;
    for (size_t i = 0; i < sizeof *info; i++)
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
    return json_string(hex);
}

static json_t *timer_json(int idx, const rv_timer *t)
{
    return json_pack("{s:i, s:i, s:i, s:i, s:b, s:b, s:o, s:o, s:o, s:I, s:I}", "index", idx, "clock", t->clock,
                     "notify", t->notify, "sig", t->sig, "queued", t->queued, "wall", t->wall, "expiry",
                     json_u64(t->expiry), "interval", json_u64(t->interval), "value", json_u64(t->value), "overrun",
                     (json_int_t)t->overrun, "last_overrun", (json_int_t)t->last_overrun);
}

static json_t *signals_json(const rv_sigstate *s)
{
    json_t *actions = json_object(), *pending = json_array(), *timers = json_array();
    for (int sig = 1; sig <= RV_NSIG; sig++) {
        const rv_sigaction *a = &s->action[sig];
        if (!a->handler && !a->flags && !a->mask)
            continue;
        char key[12];
        snprintf(key, sizeof key, "%d", sig);
        json_object_set_new(actions, key, json_pack("{s:o, s:o, s:o}", "handler", json_u64(a->handler), "flags",
                                                    json_u64(a->flags), "mask", json_u64(a->mask)));
    }
    for (uint32_t i = 0; i < s->nqueued; i++)
        json_array_append_new(pending, json_pack("{s:i, s:i, s:o}", "sig", s->queue[i].sig, "timer",
                                                 s->queue[i].timer, "info", siginfo_json(&s->queue[i].info)));
    for (int i = 0; i < RV_NTIMERS; i++)
        if (s->timer[i].used && (i >= RV_NITIMERS || s->timer[i].expiry))
            json_array_append_new(timers, timer_json(i, &s->timer[i]));
    return json_pack("{s:o, s:o, s:o, s:b, s:o, s:o, s:I, s:o, s:o}", "actions", actions, "blocked",
                     json_u64(s->blocked), "saved_mask", json_u64(s->saved_mask), "restore_mask", s->restore_mask,
                     "altstack_sp", json_u64(s->ss_sp), "altstack_size", json_u64(s->ss_size), "altstack_flags",
                     (json_int_t)s->ss_flags, "pending", pending, "timers", timers);
}

json_t *ckpt_task_json(const rv_proc *p)
{
    return json_pack("{s:i, s:i, s:o}", "pgid", p->os.task.pgid, "sid", p->os.task.sid, "signals", signals_json(&p->os.sig));
}

/* ------------------------------------------------------------- restore */

static bool siginfo_from(json_t *j, rv_siginfo *info)
{
    const char *hex = json_string_value(j);
    unsigned char *b = (unsigned char *)info;
    if (!hex || strlen(hex) != 2 * sizeof *info)
        return false;
    for (size_t i = 0; i < sizeof *info; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return false;
        b[i] = (unsigned char)v;
    }
    return true;
}

static bool timer_from(json_t *j, rv_sigstate *s)
{
    bool ok = true;
    uint64_t idx = get_u64(j, "index", &ok), clock = get_u64(j, "clock", &ok), notify = get_u64(j, "notify", &ok),
             sig = get_u64(j, "sig", &ok);
    if (!ok || idx >= RV_NTIMERS || clock > RV_CLOCK_CPU || sig > RV_NSIG ||
        (notify != G_SIGEV_SIGNAL && notify != G_SIGEV_NONE))
        return false;
    rv_timer *t = &s->timer[idx];
    *t = (rv_timer){.used = true, .clock = (uint8_t)clock, .notify = (uint8_t)notify, .sig = (uint8_t)sig};
    t->queued = json_is_true(json_object_get(j, "queued"));
    t->wall = json_is_true(json_object_get(j, "wall"));
    t->expiry = get_u64(j, "expiry", &ok);
    t->interval = get_u64(j, "interval", &ok);
    t->value = get_u64(j, "value", &ok);
    t->overrun = (uint32_t)get_u64(j, "overrun", &ok);
    t->last_overrun = (uint32_t)get_u64(j, "last_overrun", &ok);
    return ok;
}

static bool action_from(rv_sigstate *s, const char *key, json_t *j)
{
    bool ok = true;
    char *end;
    long sig = strtol(key, &end, 10);
    if (*end || sig < 1 || sig > RV_NSIG)
        return false;
    s->action[sig] = (rv_sigaction){get_u64(j, "handler", &ok), get_u64(j, "flags", &ok), get_u64(j, "mask", &ok)};
    return ok;
}

static bool signals_from(json_t *j, rv_sigstate *s)
{
    bool ok = json_is_object(j);
    const char *key;
    json_t *v;
    size_t i;
    json_object_foreach(json_object_get(j, "actions"), key, v) ok = ok && action_from(s, key, v);
    s->blocked = get_u64(j, "blocked", &ok);
    s->saved_mask = get_u64(j, "saved_mask", &ok);
    s->restore_mask = json_is_true(json_object_get(j, "restore_mask"));
    s->ss_sp = get_u64(j, "altstack_sp", &ok);
    s->ss_size = get_u64(j, "altstack_size", &ok);
    s->ss_flags = (uint32_t)get_u64(j, "altstack_flags", &ok);
    json_t *pending = json_object_get(j, "pending");
    if (json_array_size(pending) > RV_SIGQUEUE_MAX)
        return false;
    json_array_foreach(pending, i, v) {
        rv_pending *q = &s->queue[s->nqueued++];
        q->sig = (int32_t)get_u64(v, "sig", &ok);
        q->timer = (int32_t)json_integer_value(json_object_get(v, "timer"));
        ok = ok && q->sig >= 1 && q->sig <= RV_NSIG && q->timer >= -1 && q->timer < RV_NTIMERS &&
             siginfo_from(json_object_get(v, "info"), &q->info);
    }
    json_array_foreach(json_object_get(j, "timers"), i, v) ok = ok && timer_from(v, s);
    return ok;
}

/* Checkpoints before signals were delivered kept [handler, flags, mask, ?]. */
static void legacy_actions(rv_sigstate *s, json_t *sigactions)
{
    const char *key;
    json_t *v;
    json_object_foreach(sigactions, key, v) {
        long sig = strtol(key, NULL, 10);
        uint64_t w[3] = {0, 0, 0};
        for (size_t k = 0; k < 3; k++)
            if (json_is_string(json_array_get(v, k)))
                w[k] = strtoull(json_string_value(json_array_get(v, k)), NULL, 0);
        if (sig >= 1 && sig <= RV_NSIG)
            s->action[sig] = (rv_sigaction){w[0], w[1], w[2]};
    }
}

int ckpt_task_restore(rv_proc *p, json_t *j, json_t *legacy_sigactions, char *err, size_t errlen)
{
    rv_sigstate *s = &p->os.sig;
    sig_init(s);
    if (!j) {
        legacy_actions(s, legacy_sigactions);
        return 0;
    }
    bool ok = true;
    p->os.task.pgid = (int32_t)get_u64(j, "pgid", &ok);
    p->os.task.sid = (int32_t)get_u64(j, "sid", &ok);
    if (!ok || !signals_from(json_object_get(j, "signals"), s)) {
        snprintf(err, errlen, "corrupted checkpoint: bad signal or process state");
        return -1;
    }
    sig_update_event(p);
    return 0;
}
