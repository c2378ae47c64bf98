-- wrk -t2 -c16 -d3s -s scripts/wrk-putitem.lua http://127.0.0.1:8000/ : PutItem of ~200-byte items
-- into sortkey bench's table (preload it first), over 20,000 distinct keys; each wrk
-- thread counts on its own. Unsigned: for a server without --auth.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = "DynamoDB_20120810.PutItem"
local n = 0
request = function()
  n = n + 1
  local body = string.format('{"TableName":"sortkey_bench","Item":{"pk":{"S":"user#%08d"},"sk":{"S":"item#%04d"},"name":{"S":"Ada Lovelace"},"email":{"S":"ada@example.com"},"age":{"N":"36"},"tags":{"SS":["math","poetry"]},"active":{"BOOL":true},"padding":{"S":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}}', n % 2000, n % 10)
  return wrk.format(nil, nil, nil, body)
end
