module dpcov.dev/dpcov

go 1.19
