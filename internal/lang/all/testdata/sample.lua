-- Adds two numbers.
local function add(a, b)
  return helper(a) + b
end

function M.build(x)
  return add(x, 1)
end

function Cart:price()
  return self:total()
end
