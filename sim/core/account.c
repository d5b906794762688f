#include "account.h"

const char *const stack_key_names[STK_COUNT] = {
#define K(id, name, state) #name,
    STACK_KEYS(K)
#undef K
};

const uint8_t stack_key_state[STK_COUNT] = {
#define K(id, name, state) state,
    STACK_KEYS(K)
#undef K
};

const char *const event_key_names[EV_COUNT] = {
#define E(id, name) #name,
    EVENT_KEYS(E)
#undef E
};

void counters_sub(counters *out, const counters *a, const counters *b)
{
    out->instructions = a->instructions - b->instructions;
    out->cycles = a->cycles - b->cycles;
    for (int i = 0; i < STK_COUNT; i++) out->stack[i] = a->stack[i] - b->stack[i];
    for (int i = 0; i < EV_COUNT; i++) out->events[i] = a->events[i] - b->events[i];
}

void counters_add(counters *acc, const counters *x)
{
    acc->instructions += x->instructions;
    acc->cycles += x->cycles;
    for (int i = 0; i < STK_COUNT; i++) acc->stack[i] += x->stack[i];
    for (int i = 0; i < EV_COUNT; i++) acc->events[i] += x->events[i];
}

uint64_t counters_stack_sum(const counters *c)
{
    uint64_t s = 0;
    for (int i = 0; i < STK_COUNT; i++) s += c->stack[i];
    return s;
}

