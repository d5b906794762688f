-- A little of everything an interpreter does: strings and patterns, tables
-- and sorting, closures, coroutines, integer and floating-point arithmetic.
local function words(path)
  local count, total = {}, 0
  for line in io.lines(path) do
    for w in line:lower():gmatch("%a+") do
      count[w] = (count[w] or 0) + 1
      total = total + 1
    end
  end
  return count, total
end

local count, total = words(arg[1])
local list = {}
for w, n in pairs(count) do list[#list + 1] = { w = w, n = n } end
table.sort(list, function(a, b) return a.n > b.n or (a.n == b.n and a.w < b.w) end)
print(("%d words, %d distinct"):format(total, #list))
for i = 1, 8 do print(("%-12s %6d %7.3f%%"):format(list[i].w, list[i].n, 100 * list[i].n / total)) end

-- spectral norm of a small matrix (floating point)
local function A(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
local function Av(x, y, N) for i = 1, N do local a = 0 for j = 1, N do a = a + x[j] * A(i, j) end y[i] = a end end
local function Atv(x, y, N) for i = 1, N do local a = 0 for j = 1, N do a = a + x[j] * A(j, i) end y[i] = a end end
local N, u, v, t = 40, {}, {}, {}
for i = 1, N do u[i] = 1 end
for _ = 1, 5 do Av(u, t, N) Atv(t, v, N) Av(v, t, N) Atv(t, u, N) end
local vBv, vv = 0, 0
for i = 1, N do vBv = vBv + u[i] * v[i]; vv = vv + v[i] * v[i] end
print(("spectral norm %.9f"):format(math.sqrt(vBv / vv)))

-- coroutines: a generator of primes
local primes = coroutine.wrap(function()
  local n = 2
  while true do
    local p = true
    for d = 2, math.floor(math.sqrt(n)) do if n % d == 0 then p = false break end end
    if p then coroutine.yield(n) end
    n = n + 1
  end
end)
local s = 0
for _ = 1, 600 do s = s + primes() end
print("sum of the first 600 primes", s)

-- closures and string building
local function counter() local c = 0 return function() c = c + 1 return c end end
local c, parts = counter(), {}
for i = 1, 1500 do parts[#parts + 1] = string.format("%x", c() * 2654435761 % 4294967296) end
local joined = table.concat(parts, ",")
print(#joined, joined:sub(1, 40), select(2, joined:gsub("a", "")))
local ok, err = pcall(function() error({ code = 42 }) end)
print("pcall", ok, type(err), err.code)
os.exit(3)
