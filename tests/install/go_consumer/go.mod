module example.com/consumer

go 1.19
